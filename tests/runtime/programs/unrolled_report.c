// Races inside unrolled loops. Coalescing turns each loop into one run of accesses made by several
// instructions in turn (a pattern run, host/runtime/thread_state.hpp); the reports must
// still name the very instruction that touched the racy element, on either side of the race.
// The test barrier orders the threads without creating happens-before.
// Lines are matched by tests/runtime/report_test.cpp: do not move them.
#include <pthread.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

static volatile int written[64];    // by T1, a loop of four stores a round
static volatile int read_back[63];  // by main, a loop of three loads a round
static volatile long cells[34];     // by main, overlapping 16-byte loads, two a round
static volatile int filled[32];     // by T1 in one loop, then by main, a loop of four stores a round
typedef long pair __attribute__((vector_size(16), aligned(8)));
static unsigned barrier;

static void* worker(void* arg) {
  for (int i = 0; i < 64; i += 4) {
    written[i] = i;      // line 20
    written[i + 1] = i;  // line 21
    written[i + 2] = i;  // line 22: element 42 (42 % 4 == 2), which main reads
    written[i + 3] = i;  // line 23
  }
  read_back[37] = 1;  // line 25: the store main's loop races with
  cells[21] = 1;      // line 26
  cells[22] = 1;      // line 27
  for (int i = 0; i < 32; i++) filled[i] = i;  // line 28
  __tsan_testonly_barrier_wait(&barrier);
  return arg;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&barrier);
  int sum = written[42];  // line 38
  for (int i = 0; i < 63; i += 3) {
    sum += read_back[i];      // line 40
    sum += read_back[i + 1];  // line 41: element 37 (37 % 3 == 1)
    sum += read_back[i + 2];  // line 42
  }
  // Each load's first half was read by the load before it (after the first
  // one), so only its second half is new: cells[21] is first read by the
  // load at line 48 (i == 20), cells[22] by the one at line 49 (i == 20).
  for (int i = 0; i + 3 < 34; i += 2) {
    const pair a = *(volatile pair*)&cells[i];      // line 48
    const pair b = *(volatile pair*)&cells[i + 1];  // line 49
    sum += (int)(a[1] + b[1]);
  }
  // Every store races with T1's loop at line 28: one report per store
  // instruction (the racy bytes of one run differ in their instruction).
  for (int i = 0; i < 32; i += 4) {
    filled[i] = 0;      // line 55
    filled[i + 1] = 0;  // line 56
    filled[i + 2] = 0;  // line 57
    filled[i + 3] = 0;  // line 58
  }
  pthread_join(t, 0);
  return sum == -1;
}
