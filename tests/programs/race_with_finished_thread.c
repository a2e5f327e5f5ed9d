/* The first access belongs to a thread that has already finished (but was
 * not joined) when main writes: still a race, since nothing orders them. */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

int result;
static unsigned order;

static void *short_lived(void *arg) {
  (void)arg;
  result = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0; /* the thread ends here, long before main writes */
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, short_lived, 0);
  __tsan_testonly_barrier_wait(&order);
  usleep(100 * 1000);
  result = 2;
  pthread_join(t, 0);
  return 0;
}
