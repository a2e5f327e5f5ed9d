/* One thread writes under the mutex, the other writes without taking it:
 * a race. (The locked side comes first in time, so its unlock cannot order
 * the unlocked write.) */
#include <pthread.h>

#include "test_barrier.h"

int shared_state;
static pthread_mutex_t state_mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *careful(void *arg) {
  (void)arg;
  pthread_mutex_lock(&state_mutex);
  shared_state = 1;
  pthread_mutex_unlock(&state_mutex);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, careful, 0);
  __tsan_testonly_barrier_wait(&order);
  shared_state = 2; /* forgot the mutex */
  pthread_join(t, 0);
  return shared_state == 2 ? 0 : 1;
}
