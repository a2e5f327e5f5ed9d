/* As barrier_rounds_clean but with the second barrier missing: a thread's
 * next-round write to its slot is not ordered with its neighbour's read of
 * that slot in the previous round. The test barrier fixes the order in time:
 * a race. */
#include <pthread.h>

#include "test_barrier.h"

int slots[2];
static pthread_barrier_t round_barrier;
static unsigned order;

static void *participant(void *arg) {
  long me = (long)arg;
  slots[me] = 1;
  pthread_barrier_wait(&round_barrier);
  long seen = slots[1 - me];            /* reads the neighbour's round-1 value */
  __tsan_testonly_barrier_wait(&order); /* both have read */
  slots[me] = 2;                        /* round 2 write, no second barrier */
  return (void *)seen;
}

int main(void) {
  pthread_barrier_init(&round_barrier, 0, 2);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, participant, (void *)i);
  int bad = 0;
  for (int i = 0; i < 2; i++) {
    void *seen;
    pthread_join(t[i], &seen);
    bad += (long)seen != 1;
  }
  pthread_barrier_destroy(&round_barrier);
  return bad;
}
