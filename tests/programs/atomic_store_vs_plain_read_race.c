/* One thread stores to a word atomically, the other reads it with a plain
 * load, unordered: only one side is atomic, so this is a data race (C++
 * memory model, ThreadSanitizer). */
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
  long seen = *(volatile long*)&word; /* plain read: races with the atomic store */
  pthread_join(t, NULL);
  return seen == 1 ? 0 : 1;
}
