/* Two threads store to and load from the same word, all atomically and
 * relaxed: atomic accesses never race with each other. Clean. */
#include <pthread.h>

#include "test_barrier.h"

static unsigned order;
long word;

static void* storer(void* arg) {
  (void)arg;
  __atomic_store_n(&word, 1, __ATOMIC_RELAXED);
  __tsan_testonly_barrier_wait(&order);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, storer, NULL);
  __tsan_testonly_barrier_wait(&order);
  __atomic_store_n(&word, 2, __ATOMIC_RELAXED);
  long seen = __atomic_load_n(&word, __ATOMIC_RELAXED);
  pthread_join(t, NULL);
  return seen == 2 ? 0 : 1;
}
