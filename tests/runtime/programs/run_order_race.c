// A run of coalesced stores absorbs a store made after another access of
// the thread to the same byte: the worker reads cells[2], then its loop
// stores to it; main's store to cells[2] races with both. With coalescing
// the run (the loop's four stores) is checked before the read, so the
// report names the store; the recording must hold the accesses in that
// order for a detector replaying it to name the same one
// (report_test.cpp, RunsAreRecordedInTheOrderTheyWereChecked). The test
// barrier orders the threads without creating happens-before.
#include <pthread.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

static volatile int cells[4];
static volatile int seen;
static unsigned barrier;

static void* worker(void* arg) {
  __tsan_testonly_barrier_wait(&barrier);
  for (int i = 0; i < 4; i++) {
    if (i == 2) seen = cells[2];  // line 21: the read, before the loop's store to it
    cells[i] = i;                 // line 22: one instruction, a run of four stores
  }
  return arg;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cells[2] = 7;  // line 31
  __tsan_testonly_barrier_wait(&barrier);
  pthread_join(t, 0);
  return 0;
}
