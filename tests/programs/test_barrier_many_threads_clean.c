/* The test barrier takes up to 1023 participants (ThreadSanitizer's limit):
 * 300 threads pass one barrier for three rounds, each writing only its own
 * slot: clean, and every thread finishes every round. */
#include <pthread.h>

#include "test_barrier.h"

enum { kThreads = 300, kRounds = 3 };
int rounds_done[kThreads];
static unsigned order;

static void *worker(void *arg) {
  int *mine = arg;
  for (int round = 0; round < kRounds; ++round) {
    __tsan_testonly_barrier_wait(&order);
    ++*mine;
  }
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, kThreads);
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; ++i) pthread_create(&t[i], 0, worker, &rounds_done[i]);
  for (int i = 0; i < kThreads; ++i) pthread_join(t[i], 0);
  for (int i = 0; i < kThreads; ++i) {
    if (rounds_done[i] != kRounds) return 1;
  }
  return 0;
}
