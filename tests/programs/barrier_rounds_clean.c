/* Four threads run 20 rounds: write their own slot, pthread_barrier_wait,
 * read their neighbour's slot, pthread_barrier_wait. Each barrier round
 * orders everything before it (in every thread) before everything after it:
 * clean. */
#include <pthread.h>

enum { kThreads = 4, kRounds = 20 };

int slots[kThreads];
static pthread_barrier_t round_barrier;

static void *participant(void *arg) {
  long me = (long)arg;
  long sum = 0;
  for (int r = 0; r < kRounds; r++) {
    slots[me] = (int)(r * 10 + me);
    pthread_barrier_wait(&round_barrier);
    sum += slots[(me + 1) % kThreads];
    pthread_barrier_wait(&round_barrier);
  }
  return (void *)sum;
}

int main(void) {
  pthread_barrier_init(&round_barrier, 0, kThreads);
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&t[i], 0, participant, (void *)i);
  int bad = 0;
  for (long i = 0; i < kThreads; i++) {
    void *sum;
    pthread_join(t[i], &sum);
    long expected = 10L * kRounds * (kRounds - 1) / 2 + kRounds * ((i + 1) % kThreads);
    bad += (long)sum != expected;
  }
  pthread_barrier_destroy(&round_barrier);
  return bad;
}
