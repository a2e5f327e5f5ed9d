/* A thread's writes inside AnnotateIgnoreWritesBegin/End are not recorded,
 * so another thread's later unsynchronized write to the same word is not
 * reported. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

long debug_marker;
static unsigned order;

static void *tracer(void *arg) {
  (void)arg;
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  debug_marker = 1;
  AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, tracer, 0);
  __tsan_testonly_barrier_wait(&order);
  debug_marker = 2;
  pthread_join(t, 0);
  return debug_marker == 2 ? 0 : 1;
}
