/* A load of a location whose last store was the thread's own (decided
 * without its clock work and checked at the thread's next drain:
 * docs/runtime.md, "Loads of a clock the thread holds") still races with a
 * plain write nothing orders it with. The writer is ordered after the
 * store (it acquired it) but not after the load, so only the load's check
 * can find this race: a runtime that dropped such loads reports nothing. */
#include <pthread.h>

#include "test_barrier.h"

static unsigned order;
long word;

static void* owner(void* arg) {
  (void)arg;
  __atomic_store_n(&word, 1, __ATOMIC_RELEASE);
  long seen = __atomic_load_n(&word, __ATOMIC_RELAXED); /* the thread's own store: races with the write below */
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  return (void*)seen;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, owner, NULL);
  __tsan_testonly_barrier_wait(&order);
  while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) != 1) {
  }         /* ordered after the store */
  word = 2; /* plain write: after the store, unordered with the load */
  __tsan_testonly_barrier_wait(&order);
  void* seen;
  pthread_join(t, &seen);
  return seen == (void*)1 ? 0 : 1;
}
