/* A destroyed mutex starts over when it is made again in the same memory,
 * with no free between (ThreadSanitizer resets a mutex's sync state at
 * pthread_mutex_destroy). The main thread locks the mutex, stores `shared`,
 * unlocks, destroys it and initializes it again; the worker, unordered with
 * all of that (the test barrier creates no happens-before), then locks the
 * new mutex and loads `shared`. The new mutex has no history, so the load
 * races with the store. The worker's lock also reads the mutex's memory,
 * which races with main's pthread_mutex_init: two reports, as TSan gives. */
#include <pthread.h>

#include "test_barrier.h"

long shared;
static pthread_mutex_t m;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* main has made the mutex again */
  pthread_mutex_lock(&m);
  long seen = shared; /* unordered with main's store: a race */
  pthread_mutex_unlock(&m);
  return (void *)seen;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_mutex_init(&m, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  shared = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_destroy(&m);
  pthread_mutex_init(&m, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  pthread_mutex_destroy(&m);
  return 0;
}
