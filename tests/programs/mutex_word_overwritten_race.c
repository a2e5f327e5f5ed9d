// Main overwrites a mutex's memory with a plain store (memset) while thread
// T's lock and unlock of it are not ordered before (the test barrier orders
// them in time only): the store races with T's use of the lock.
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

static unsigned order;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  memset(&m, 0, sizeof m);  // races with the worker's lock/unlock
  pthread_join(t, 0);
  return counter == 1 ? 0 : 1;
}
