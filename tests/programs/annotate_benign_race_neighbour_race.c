/* Only the first 8 bytes of a struct are declared a benign race; the field
 * right after them races for real and must still be reported. */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

struct Stats {
  long approximate;
  long exact;
} stats;
static unsigned order;

static void *updater(void *arg) {
  (void)arg;
  stats.approximate++;
  stats.exact++;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  AnnotateBenignRaceSized(__FILE__, __LINE__, &stats.approximate, sizeof stats.approximate, "approximate");
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, updater, 0);
  __tsan_testonly_barrier_wait(&order);
  stats.approximate++;
  stats.exact++;
  pthread_join(t, 0);
  return stats.exact == 2 ? 0 : 1;
}
