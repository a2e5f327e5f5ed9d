/* A statistics counter that is deliberately updated without synchronization
 * by two threads, declared benign with AnnotateBenignRaceSized: no report. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

long approximate_hits;
static unsigned order;

static void *counter(void *arg) {
  (void)arg;
  approximate_hits++;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  AnnotateBenignRaceSized(__FILE__, __LINE__, &approximate_hits, sizeof approximate_hits, "statistics only");
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, counter, 0);
  __tsan_testonly_barrier_wait(&order);
  approximate_hits++;
  pthread_join(t, 0);
  return approximate_hits == 2 ? 0 : 1;
}
