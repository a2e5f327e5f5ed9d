/* puts() reads the string it prints. Thread T writes msg[0]; afterwards in
 * time (test barrier, no happens-before) main puts(msg): a race between T's
 * write and puts' read. (stdout goes to /dev/null in the test.) */
#include <pthread.h>
#include <stdio.h>

#include "test_barrier.h"

char msg[16] = "hello, world";
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  msg[0] = 'H';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  const int r = puts(msg);
  pthread_join(t, 0);
  return r >= 0 ? 0 : 1;
}
