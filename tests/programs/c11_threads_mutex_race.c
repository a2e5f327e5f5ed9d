/* C11 threads: two threads update a counter, one under a mtx_t and one
 * without it. A race, on every run (the interceptors of the C11 names make
 * the mutex order only the accesses it guards). */
#include <threads.h>

#include "test_barrier.h"

static unsigned order;
static mtx_t m;
long counter;

static int locked_adder(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  mtx_lock(&m);
  counter++;
  mtx_unlock(&m);
  return 0;
}

static int unlocked_adder(void* arg) {
  (void)arg;
  counter++;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  mtx_init(&m, mtx_plain);
  thrd_t a, b;
  thrd_create(&a, locked_adder, 0);
  thrd_create(&b, unlocked_adder, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  mtx_destroy(&m);
  return counter == 2 ? 0 : 1;
}
