/* A malloc'ed block shared by two threads, written by both without
 * synchronization: a race on the heap. */
#include <pthread.h>
#include <stdlib.h>

#include "test_barrier.h"

static unsigned order;

static void *writer(void *arg) {
  int *block = arg;
  block[3] = 7;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  int *block = calloc(16, sizeof(int));
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, writer, block);
  __tsan_testonly_barrier_wait(&order);
  block[3] = 8;
  pthread_join(t, 0);
  free(block);
  return 0;
}
