/* The writer takes and releases the mutex, and only then writes: the write
 * is outside the critical section, so the reader's locked read is not ordered
 * after it. The test barrier makes the writer's lock/unlock come first, so the
 * reader's lock cannot order the read before the write either: a race. */
#include <pthread.h>

#include "test_barrier.h"

int message;
static pthread_mutex_t message_mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&message_mutex);
  pthread_mutex_unlock(&message_mutex);
  __tsan_testonly_barrier_wait(&order);
  message = 42; /* too late: the mutex is already released */
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_lock(&message_mutex);
  int seen = message;
  pthread_mutex_unlock(&message_mutex);
  pthread_join(t, 0);
  return seen == 42 ? 0 : 1;
}
