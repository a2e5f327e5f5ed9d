/* A thread initializes a mutex; main locks it with no synchronization with
 * that initialization. pthread_mutex_init writes the mutex object and lock
 * reads it: a race on the mutex itself. */
#include <pthread.h>

#include "test_barrier.h"

pthread_mutex_t late_mutex;
static unsigned order;

static void *initializer(void *arg) {
  (void)arg;
  pthread_mutex_init(&late_mutex, 0);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, initializer, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_lock(&late_mutex);
  pthread_mutex_unlock(&late_mutex);
  pthread_join(t, 0);
  pthread_mutex_destroy(&late_mutex);
  return 0;
}
