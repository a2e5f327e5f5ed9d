/* strlen() reads the string up to its terminator. Thread T writes s[3];
 * afterwards in time (test barrier, no happens-before) main calls strlen(s)
 * through a volatile function pointer (no inline expansion): a race. */
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

char s[16] = "abcdefgh";
static unsigned order;
size_t (*volatile length_of)(const char *) = strlen;

static void *writer(void *arg) {
  (void)arg;
  s[3] = 'D';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  const size_t n = length_of(s);
  pthread_join(t, 0);
  return n == 8 ? 0 : 1;
}
