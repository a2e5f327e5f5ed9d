/* The producer sets the predicate and signals under the mutex, but writes
 * the payload only after unlocking; the consumer wakes and reads the
 * payload. The payload write is outside anything the consumer acquires: a
 * race in every interleaving. */
#include <pthread.h>

#include "test_barrier.h"

int payload;
int ready;
static pthread_mutex_t ready_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static unsigned order;

static void *producer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&ready_mutex);
  ready = 1;
  pthread_cond_signal(&ready_cond);
  pthread_mutex_unlock(&ready_mutex);
  payload = 99; /* after the unlock */
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&ready_mutex);
  while (!ready) pthread_cond_wait(&ready_cond, &ready_mutex);
  pthread_mutex_unlock(&ready_mutex);
  __tsan_testonly_barrier_wait(&order); /* read after the write, in time only */
  int seen = payload;
  pthread_join(t, 0);
  return seen == 99 ? 0 : 1;
}
