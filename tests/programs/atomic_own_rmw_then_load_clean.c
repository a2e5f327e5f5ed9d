/* A relaxed read-modify-write continues another thread's release sequence:
 * the location's clock then holds that thread's clock, so an acquire load
 * of the read-modify-write's own value must still join it (C++ release
 * sequences). Only plain stores make a location the thread's own for loads
 * decided without their clock work (docs/runtime.md, "Loads of a
 * clock the thread holds"); a runtime that counted the read-modify-write too
 * would skip that acquire and report a race on `payload`. */
#include <pthread.h>

#include "test_barrier.h"

static unsigned order;
static long counter;
static long payload;

static void* publisher(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* after main's store, without ordering */
  payload = 42;
  __atomic_store_n(&counter, 1, __ATOMIC_RELEASE);
  __tsan_testonly_barrier_wait(&order);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, publisher, NULL);
  __atomic_store_n(&counter, 0, __ATOMIC_RELAXED); /* main's own store */
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);              /* after the release store, without ordering */
  __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED); /* reads 1: in the release sequence */
  long seen = 0;
  if (__atomic_load_n(&counter, __ATOMIC_ACQUIRE) == 2) seen = payload; /* ordered by the release sequence */
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
