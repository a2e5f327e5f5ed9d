/* A thread writes into a heap block; main frees the block without any
 * synchronization with that write. free() counts as a write of the whole
 * block, so this is a race. */
#include <pthread.h>
#include <stdlib.h>

#include "test_barrier.h"

static unsigned order;

static void *user(void *arg) {
  long *block = arg;
  block[2] = 5;
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  long *block = malloc(8 * sizeof(long));
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, user, block);
  __tsan_testonly_barrier_wait(&order);
  free(block);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  return 0;
}
