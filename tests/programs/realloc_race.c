/* A thread writes into a block; main then reallocs the block to a much larger
 * size (which moves it, reading and freeing the old one) without
 * synchronization: a race on the old block. */
#include <pthread.h>
#include <stdlib.h>

#include "test_barrier.h"

static unsigned order;

static void *user(void *arg) {
  int *block = arg;
  block[1] = 9;
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  int *block = malloc(16 * sizeof(int));
  block[0] = 1;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, user, block);
  __tsan_testonly_barrier_wait(&order);
  int *grown = realloc(block, 1 << 20);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  int ok = grown[0] == 1;
  free(grown);
  return ok ? 0 : 1;
}
