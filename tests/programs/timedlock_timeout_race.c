/* The owner holds the mutex; the other thread's pthread_mutex_timedlock times
 * out (ETIMEDOUT) and it writes anyway. A timed-out lock acquires nothing:
 * a race. */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "test_barrier.h"

int guarded;
static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *owner(void *arg) {
  (void)arg;
  pthread_mutex_lock(&guard);
  guarded = 1;
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_unlock(&guard);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, owner, 0);
  __tsan_testonly_barrier_wait(&order);
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 20 * 1000 * 1000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec++;
    deadline.tv_nsec -= 1000000000;
  }
  int timed_out = pthread_mutex_timedlock(&guard, &deadline) == ETIMEDOUT;
  guarded = 2;
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  return timed_out ? 0 : 1;
}
