/* A monitoring thread peeks at a value another thread writes, inside
 * AnnotateIgnoreReadsBegin/End: its reads are not checked, so no report. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

long progress;
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
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  long seen = progress;
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  pthread_join(t, 0);
  return seen == 50 ? 0 : 1;
}
