/* sem_timedwait with a deadline that is first missed (ETIMEDOUT, no
 * synchronization) and then met: the data written before the sem_post is
 * read after the successful wait only. Clean. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "test_barrier.h"

long answer;
static sem_t answered;
static unsigned order;

static struct timespec deadline_in_ms(long ms) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += ms * 1000000;
  deadline.tv_sec += deadline.tv_nsec / 1000000000;
  deadline.tv_nsec %= 1000000000;
  return deadline;
}

static void *answerer(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* main's first wait has timed out */
  answer = 42;
  sem_post(&answered);
  return 0;
}

int main(void) {
  sem_init(&answered, 0, 0);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, answerer, 0);
  struct timespec soon = deadline_in_ms(10);
  int first = sem_timedwait(&answered, &soon);
  int timed_out = first == -1 && errno == ETIMEDOUT;
  __tsan_testonly_barrier_wait(&order);
  struct timespec later = deadline_in_ms(30000);
  if (sem_timedwait(&answered, &later) != 0) return 2;
  long seen = answer;
  pthread_join(t, 0);
  sem_destroy(&answered);
  return timed_out && seen == 42 ? 0 : 1;
}
