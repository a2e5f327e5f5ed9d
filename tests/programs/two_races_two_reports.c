/* Two different variables (on different cache lines) race at two different
 * pairs of sites: exactly two reports. */
#include <pthread.h>

#include "test_barrier.h"

_Alignas(64) int first_shared;
_Alignas(64) int second_shared;
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  first_shared = 1;
  second_shared = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  int a = first_shared;
  int b = second_shared;
  pthread_join(t, 0);
  return a + b == 2 ? 0 : 1;
}
