/* A word read (and another written) inside AnnotateIgnoreReads/WritesBegin..End,
 * then read (written) again right after the End, in the same sync-free region:
 * the ignored access must not count as checked, so the second one is checked
 * and both races are reported. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

long observed;
long written;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  observed = 1;
  written = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  long first = observed; /* ignored */
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  long second = observed; /* checked: a race */
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  written = 2; /* ignored */
  AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
  written = 3; /* checked: a race */
  pthread_join(t, 0);
  return first == 1 && second == 1 ? 0 : 1;
}
