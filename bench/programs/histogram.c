/* Benchmark kernel: a shared histogram protected by one mutex. Each thread
 * generates pseudo-random values and adds them one at a time under the lock,
 * so the kernel is dominated by lock/unlock (synchronization cost).
 * Usage: histogram [ITEMS_PER_THREAD=2500000] [THREADS=4]; prints a checksum. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kBuckets = 256 };

static long histogram[kBuckets];
static pthread_mutex_t histogram_mutex = PTHREAD_MUTEX_INITIALIZER;
static long items_per_thread;

static void *fill(void *arg) {
  uint64_t state = 0x9e3779b97f4a7c15ull * (uint64_t)((long)arg + 1);
  for (long i = 0; i < items_per_thread; i++) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const unsigned bucket = (unsigned)(state % kBuckets);
    pthread_mutex_lock(&histogram_mutex);
    histogram[bucket]++;
    pthread_mutex_unlock(&histogram_mutex);
  }
  return 0;
}

int main(int argc, char **argv) {
  items_per_thread = argc > 1 ? atol(argv[1]) : 2500000;
  const int threads = argc > 2 ? atoi(argv[2]) : 4;
  if (items_per_thread <= 0 || threads <= 0 || threads > 256) {
    fprintf(stderr, "usage: histogram [ITEMS>0] [THREADS 1..256]\n");
    return 2;
  }
  pthread_t tid[256];
  for (long t = 0; t < threads; t++) pthread_create(&tid[t], 0, fill, (void *)t);
  for (int t = 0; t < threads; t++) pthread_join(tid[t], 0);
  long total = 0, weighted = 0;
  for (int b = 0; b < kBuckets; b++) {
    total += histogram[b];
    weighted += histogram[b] * b;
  }
  printf("histogram items=%ld weighted=%ld\n", total, weighted);
  return total == items_per_thread * threads ? 0 : 1;
}
