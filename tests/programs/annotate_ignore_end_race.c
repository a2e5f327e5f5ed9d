/* Accesses are ignored only between AnnotateIgnoreReadsBegin and ...End: a
 * racy read after the End is checked again and must be reported. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

long progress;
long result;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  progress = 50;
  result = 7;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  long seen_progress = progress; /* ignored */
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  long seen_result = result; /* checked: a race */
  pthread_join(t, 0);
  return seen_progress == 50 && seen_result == 7 ? 0 : 1;
}
