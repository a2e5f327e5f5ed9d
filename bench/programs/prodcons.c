/* Benchmark kernel: producers and consumers around a bounded ring buffer
 * guarded by a mutex and two condition variables. Each item carries a small
 * array the consumer checksums, so both data and synchronization count.
 * Usage: prodcons [ITEMS=300000] [PAIRS=2] (PAIRS producers + PAIRS
 * consumers); prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kCapacity = 64, kPayload = 16 };

struct Item {
  long id;
  int payload[kPayload];
};

static struct Item ring[kCapacity];
static int head, tail, count;
static long produced_target, consumed_total;
static long checksum;
static pthread_mutex_t ring_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static long items_per_producer;

static void *producer(void *arg) {
  const long base = (long)arg * items_per_producer;
  for (long i = 0; i < items_per_producer; i++) {
    struct Item item;
    item.id = base + i;
    for (int k = 0; k < kPayload; k++) item.payload[k] = (int)((item.id * 31 + k) & 0xffff);
    pthread_mutex_lock(&ring_mutex);
    while (count == kCapacity) pthread_cond_wait(&not_full, &ring_mutex);
    ring[tail] = item;
    tail = (tail + 1) % kCapacity;
    count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&ring_mutex);
  }
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  long local = 0;
  for (;;) {
    pthread_mutex_lock(&ring_mutex);
    while (count == 0 && consumed_total < produced_target) pthread_cond_wait(&not_empty, &ring_mutex);
    if (count == 0) {
      pthread_mutex_unlock(&ring_mutex);
      break;
    }
    struct Item item = ring[head];
    head = (head + 1) % kCapacity;
    count--;
    consumed_total++;
    if (consumed_total == produced_target) pthread_cond_broadcast(&not_empty);
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&ring_mutex);
    for (int k = 0; k < kPayload; k++) local += item.payload[k];
  }
  pthread_mutex_lock(&ring_mutex);
  checksum += local;
  pthread_mutex_unlock(&ring_mutex);
  return 0;
}

int main(int argc, char **argv) {
  const long items = argc > 1 ? atol(argv[1]) : 300000;
  const int pairs = argc > 2 ? atoi(argv[2]) : 2;
  if (items <= 0 || pairs <= 0 || pairs > 64) {
    fprintf(stderr, "usage: prodcons [ITEMS>0] [PAIRS 1..64]\n");
    return 2;
  }
  items_per_producer = items / pairs;
  produced_target = items_per_producer * pairs;
  pthread_t tid[128];
  for (long p = 0; p < pairs; p++) pthread_create(&tid[p], 0, producer, (void *)p);
  for (int c = 0; c < pairs; c++) pthread_create(&tid[pairs + c], 0, consumer, 0);
  for (int t = 0; t < 2 * pairs; t++) pthread_join(tid[t], 0);
  printf("prodcons items=%ld checksum=%ld\n", consumed_total, checksum);
  return consumed_total == produced_target ? 0 : 1;
}
