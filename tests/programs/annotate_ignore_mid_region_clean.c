/* Ignored reads and writes in the middle of a sync-free region, after the
 * thread's own checked accesses: the ignored ones race with another thread's
 * write but are not checked (the inline fast path must not decide them), so
 * no report. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

long progress;
long own_counter;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  progress = 50;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  for (int i = 0; i < 4; i++) own_counter += i; /* checked, main's alone */
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  long seen = progress;
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  progress = 51;
  AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
  pthread_join(t, 0);
  return seen == 50 && own_counter == 6 ? 0 : 1;
}
