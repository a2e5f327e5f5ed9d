/* Benchmark kernel: pointer chasing through a linked structure with a lock
 * per node. main links the nodes in a pseudo-random cycle; every thread
 * walks it from its own start, locking each node to update its counter and
 * read its successor. Stresses many lock objects and scattered accesses.
 * Usage: chase [STEPS_PER_THREAD=2000000] [THREADS=2] [NODES=65536]; prints a checksum. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct Node {
  pthread_mutex_t lock;
  struct Node *next;
  long visits;
  long payload;
};

static struct Node *nodes;
static long node_count, steps_per_thread;

static void *walk(void *arg) {
  struct Node *n = &nodes[(size_t)((long)arg * 7919) % (size_t)node_count];
  long sum = 0;
  for (long i = 0; i < steps_per_thread; i++) {
    pthread_mutex_lock(&n->lock);
    n->visits++;
    sum += n->payload;
    struct Node *next = n->next;
    pthread_mutex_unlock(&n->lock);
    n = next;
  }
  return (void *)(intptr_t)sum;
}

int main(int argc, char **argv) {
  steps_per_thread = argc > 1 ? atol(argv[1]) : 2000000;
  const int threads = argc > 2 ? atoi(argv[2]) : 2;
  node_count = argc > 3 ? atol(argv[3]) : 65536;
  if (steps_per_thread <= 0 || threads <= 0 || threads > 256 || node_count <= 1) {
    fprintf(stderr, "usage: chase [STEPS>0] [THREADS 1..256] [NODES>1]\n");
    return 2;
  }
  nodes = malloc(sizeof(struct Node) * (size_t)node_count);
  long *order = malloc(sizeof(long) * (size_t)node_count);
  if (!nodes || !order) return 2;
  for (long i = 0; i < node_count; i++) order[i] = i;
  uint64_t state = 0x2545f4914f6cdd1dull;
  for (long i = node_count - 1; i > 0; i--) {  // Fisher-Yates: one random cycle through every node
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const long j = (long)((state >> 33) % (uint64_t)(i + 1));
    const long tmp = order[i];
    order[i] = order[j];
    order[j] = tmp;
  }
  for (long i = 0; i < node_count; i++) {
    struct Node *n = &nodes[order[i]];
    pthread_mutex_init(&n->lock, 0);
    n->next = &nodes[order[(i + 1) % node_count]];
    n->visits = 0;
    n->payload = order[i];
  }
  free(order);
  pthread_t tid[256];
  for (long t = 0; t < threads; t++) pthread_create(&tid[t], 0, walk, (void *)t);
  long checksum = 0;
  for (int t = 0; t < threads; t++) {
    void *sum;
    pthread_join(tid[t], &sum);
    checksum += (long)(intptr_t)sum;
  }
  long visits = 0;
  for (long i = 0; i < node_count; i++) {
    visits += nodes[i].visits;
    pthread_mutex_destroy(&nodes[i].lock);
  }
  printf("chase threads=%d visits=%ld checksum=%ld\n", threads, visits, checksum);
  free(nodes);
  return visits == steps_per_thread * threads ? 0 : 1;
}
