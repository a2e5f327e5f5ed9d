/* A mutex in freed memory is gone with it. The main thread locks a mutex
 * in a large block, stores `shared`, unlocks it and frees the block; the
 * worker then gets the same block back from malloc (free unmapped it, the
 * next malloc of its size maps it again: the fixed mmap threshold keeps
 * glibc from moving such blocks into its heap) and makes a new mutex at the same
 * address. The new mutex has no history: locking it does not order the
 * worker after the old mutex's last unlock (ThreadSanitizer resets the sync
 * state of freed memory), so the worker's load of `shared` races with the
 * main thread's store. Exits 3 when the block was not reused (the program
 * would then test nothing). */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_barrier.h"

enum { kBlock = 1 << 20 };
long shared;
static void *first_block;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* main has freed the block */
  pthread_mutex_t *m = malloc(kBlock);
  if ((void *)m != first_block) {
    fprintf(stderr, "mutex_reused_after_free_race: the block was not reused\n");
    exit(3);
  }
  pthread_mutex_init(m, 0);
  pthread_mutex_lock(m);
  long seen = shared; /* unordered with main's store: a race */
  pthread_mutex_unlock(m);
  pthread_mutex_destroy(m);
  free(m);
  return (void *)seen;
}

int main(void) {
  mallopt(M_MMAP_THRESHOLD, kBlock / 2);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_mutex_t *m = malloc(kBlock);
  first_block = m;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_init(m, 0);
  pthread_mutex_lock(m);
  shared = 1;
  pthread_mutex_unlock(m);
  pthread_mutex_destroy(m);
  free(m);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  return 0;
}
