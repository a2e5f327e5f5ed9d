/* Both threads lock a mutex around their write, but not the same mutex:
 * holding some lock is not enough, so a race. */
#include <pthread.h>

#include "test_barrier.h"

long balance;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *depositor(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock_a);
  balance += 10;
  pthread_mutex_unlock(&lock_a);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, depositor, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_lock(&lock_b);
  balance -= 3;
  pthread_mutex_unlock(&lock_b);
  pthread_join(t, 0);
  return balance == 7 ? 0 : 1;
}
