/* memcmp() reads both buffers. Thread T writes a[5]; afterwards in time (test
 * barrier, no happens-before) main compares a and b with memcmp: a race. The
 * call goes through a volatile function pointer so that the compiler cannot
 * expand it inline: libc's memcmp must run. */
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

char a[8] = "abcdefg";
char b[8] = "abcdefg";
static unsigned order;
int (*volatile compare)(const void *, const void *, size_t) = memcmp;

static void *writer(void *arg) {
  (void)arg;
  a[5] = 'F';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  const int r = compare(a, b, sizeof a);
  pthread_join(t, 0);
  return r != 0 ? 0 : 1;
}
