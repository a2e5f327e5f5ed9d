/* One thread WRITES while holding only the read lock; another reads under
 * the read lock. Read-side critical sections do not order each other: a race. */
#include <pthread.h>

#include "test_barrier.h"

int cached;
static pthread_rwlock_t cache_lock = PTHREAD_RWLOCK_INITIALIZER;
static unsigned order;

static void *bad_writer(void *arg) {
  (void)arg;
  pthread_rwlock_rdlock(&cache_lock);
  cached = 7; /* a write under a read lock */
  pthread_rwlock_unlock(&cache_lock);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, bad_writer, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_rwlock_rdlock(&cache_lock);
  int seen = cached;
  pthread_rwlock_unlock(&cache_lock);
  pthread_join(t, 0);
  return seen == 7 ? 0 : 1;
}
