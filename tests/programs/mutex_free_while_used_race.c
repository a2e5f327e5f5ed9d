// A heap mutex freed by main while thread T's lock and unlock of it are not
// ordered before the free (the test barrier orders them in time only): the
// free races with T's use of the lock's memory. Every lock and unlock reads
// the lock word (issue 11 item 3 keeps those reads inside the critical
// section, totally ordered by the lock; a free outside it still races).
#include <pthread.h>
#include <stdlib.h>

#include "test_barrier.h"

static unsigned order;
static pthread_mutex_t *m;
static int counter;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(m);
  counter++;
  pthread_mutex_unlock(m);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  m = malloc(sizeof *m);
  pthread_mutex_init(m, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  free(m);  // races with the worker's lock/unlock
  pthread_join(t, 0);
  return counter == 1 ? 0 : 1;
}
