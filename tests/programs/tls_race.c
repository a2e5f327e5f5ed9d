/* A thread-local variable whose address escapes to another thread (handed
 * over under a mutex): main then writes the worker's copy while the worker
 * writes it too. TLS is ordinary memory once its address is shared: a race. */
#include <pthread.h>

#include "test_barrier.h"

_Thread_local int per_thread;
int *escaped;
static pthread_mutex_t escaped_mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&escaped_mutex);
  escaped = &per_thread;
  pthread_mutex_unlock(&escaped_mutex);
  __tsan_testonly_barrier_wait(&order); /* main may take the pointer */
  per_thread = 1;
  __tsan_testonly_barrier_wait(&order); /* main writes after our write */
  __tsan_testonly_barrier_wait(&order); /* keep the TLS alive until then */
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_lock(&escaped_mutex);
  int *target = escaped;
  pthread_mutex_unlock(&escaped_mutex);
  __tsan_testonly_barrier_wait(&order);
  *target = 2;
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  return 0;
}
