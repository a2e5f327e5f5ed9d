/* Loads of a clock the thread holds (docs/runtime.md): main loads a flag
 * relaxed (that gives it no clock), then with acquire (that one must join
 * the flag's clock: `first` is read after it), then again, and then until
 * another release store arrives (the load that sees it must acquire:
 * `second`). Each load comes in a new sync-free region, so none is a
 * repeat. A runtime that took a relaxed load's clock as held would report a
 * race on `first`; one that skipped the store-version compare, on `second`. */
#include <pthread.h>

#include "test_barrier.h"

static unsigned order;
static long flag;
static long first, second;
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;

static void* publisher(void* arg) {
  (void)arg;
  first = 1;
  __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order); /* after main's loads of 1, without ordering */
  second = 2;
  __atomic_store_n(&flag, 2, __ATOMIC_RELEASE);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, publisher, NULL);
  __tsan_testonly_barrier_wait(&order);
  long seen = __atomic_load_n(&flag, __ATOMIC_RELAXED); /* 1: relaxed, so main holds no clock yet */
  pthread_mutex_lock(&own_lock);                        /* a new region each time: no repeats */
  pthread_mutex_unlock(&own_lock);
  if (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 1) seen += first; /* must acquire: reads `first` */
  pthread_mutex_lock(&own_lock);
  pthread_mutex_unlock(&own_lock);
  seen += __atomic_load_n(&flag, __ATOMIC_ACQUIRE); /* 1 again: a clock main holds */
  __tsan_testonly_barrier_wait(&order);
  while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 2) {
  } /* the load that sees 2 must acquire */
  seen += second;
  pthread_join(t, NULL);
  return seen == 5 ? 0 : 1;
}
