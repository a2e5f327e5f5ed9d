/* A detached thread still starts after its pthread_create: it reads what
 * main wrote before creating it and writes a private result. main waits for
 * it with the test barrier (no happens-before) and never touches that data
 * again: clean. */
#include <pthread.h>

#include "test_barrier.h"

int parameters[8];
int worker_scratch[8];
static unsigned order;

static void *detached_worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 8; i++) worker_scratch[i] = parameters[i] * 2;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  for (int i = 0; i < 8; i++) parameters[i] = i;
  pthread_t t;
  pthread_create(&t, 0, detached_worker, 0);
  pthread_detach(t);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}
