/* A race between main and a worker, after which the worker calls exit(0)
 * while main is blocked: the report must still come out and the exit status
 * become 66. */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

#include "test_barrier.h"

int shared_value;
static sem_t never_posted;
static unsigned order;

static void *finisher(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* main wrote first */
  shared_value = 2;
  exit(0);
}

int main(void) {
  sem_init(&never_posted, 0, 0);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t f;
  pthread_create(&f, 0, finisher, 0);
  shared_value = 1;
  __tsan_testonly_barrier_wait(&order);
  sem_wait(&never_posted); /* never returns */
  return 3;
}
