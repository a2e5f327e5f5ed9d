/* A thread loads a location it stored itself, until another thread's
 * release store replaces the value: that load must acquire (the other
 * thread's plain write before its store is then ordered before the read
 * after the load). Loads of the thread's own store are decided without
 * their clock work only while the location's store version is the one the
 * thread's store left (docs/runtime.md, "Loads of a clock the thread holds");
 * a runtime that skipped the version compare would take the load of the
 * new value for one of its own store and report a race on `payload`. (The
 * store comes after the other thread started: an allocation anywhere, such
 * as a thread start's, also ends the memo of a store.) */
#include <pthread.h>

#include "test_barrier.h"

static unsigned order;
static long flag;
static long payload;

static void* other(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* both threads started (their allocations done) */
  __tsan_testonly_barrier_wait(&order); /* after main's store, without ordering */
  payload = 42;
  __atomic_store_n(&flag, 2, __ATOMIC_RELEASE);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, other, NULL);
  __tsan_testonly_barrier_wait(&order);
  __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  __tsan_testonly_barrier_wait(&order);
  while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 2) {
  }                    /* loads of the own store until the other one arrives */
  long seen = payload; /* ordered: the load that saw 2 acquired */
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
