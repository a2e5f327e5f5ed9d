/* Two threads write the same global int with no synchronization: a race.
 * The test barrier puts the writes in a fixed order in time without ordering
 * them by happens-before. */
#include <pthread.h>

#include "test_barrier.h"

int shared;
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  shared = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  shared = 2;
  pthread_join(t, 0);
  return shared == 2 ? 0 : 1;
}
