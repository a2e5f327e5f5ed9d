/* main passes the address of one of its locals to a thread; both write it
 * without synchronization: a race on main's stack. */
#include <pthread.h>

#include "test_barrier.h"

static unsigned order;

static void *writer(void *arg) {
  int *slot = arg;
  *slot = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  int local = 0;
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, writer, &local);
  __tsan_testonly_barrier_wait(&order);
  local = 2;
  pthread_join(t, 0);
  return local == 2 ? 0 : 1;
}
