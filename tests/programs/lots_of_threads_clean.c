/* 300 threads alive at once run 10 rounds; in each round every thread adds
 * to its own slot and reads the previous round's slot of another thread,
 * separated by pthread_barrier_wait: clean, and a stress test for thread ids
 * and vector-clock sizes. */
#include <pthread.h>

enum { kThreads = 300, kRounds = 10 };

long slots[kThreads];
static pthread_barrier_t round_barrier;

static void *participant(void *arg) {
  long me = (long)arg;
  long seen = 0;
  for (int r = 0; r < kRounds; r++) {
    slots[me] += me;
    pthread_barrier_wait(&round_barrier);
    seen += slots[(me * 7 + 1) % kThreads];
    pthread_barrier_wait(&round_barrier);
  }
  return (void *)seen;
}

int main(void) {
  pthread_attr_t small_stack;
  pthread_attr_init(&small_stack);
  pthread_attr_setstacksize(&small_stack, 256 * 1024);
  pthread_barrier_init(&round_barrier, 0, kThreads);
  static pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; i++)
    if (pthread_create(&threads[i], &small_stack, participant, (void *)i) != 0) return 2;
  pthread_attr_destroy(&small_stack);
  int bad = 0;
  for (long i = 0; i < kThreads; i++) {
    void *seen;
    pthread_join(threads[i], &seen);
    long other = (i * 7 + 1) % kThreads;
    bad += (long)seen != other * kRounds * (kRounds + 1) / 2;
  }
  pthread_barrier_destroy(&round_barrier);
  return bad;
}
