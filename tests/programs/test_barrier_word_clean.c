/* The test barrier is one 32-bit word, as ThreadSanitizer's test header
 * declares it. Here the barrier is followed directly by another global,
 * which main writes after initializing the barrier: a runtime that treats
 * the barrier as 64 bits stores its count in `after` at init, the program
 * then overwrites it, and every thread waits for ever (alarm() ends that).
 * Both threads only write their own variables: clean. */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

struct layout {
  unsigned order; /* the barrier */
  unsigned after; /* the next word, written by the program */
};
struct layout words;
int mine[2];

static void *worker(void *arg) {
  (void)arg;
  for (int round = 0; round < 3; ++round) {
    __tsan_testonly_barrier_wait(&words.order);
    mine[1] += round;
  }
  return 0;
}

int main(void) {
  alarm(20); /* a barrier that never opens fails the test instead of hanging */
  __tsan_testonly_barrier_init(&words.order, 2);
  words.after = 12345;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  for (int round = 0; round < 3; ++round) {
    __tsan_testonly_barrier_wait(&words.order);
    mine[0] += round;
  }
  pthread_join(t, 0);
  return words.after == 12345 && mine[0] == 3 && mine[1] == 3 ? 0 : 1;
}
