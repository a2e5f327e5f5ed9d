// One loop instruction reached through two call stacks: read_bytes, called
// by via_first for cells[0..32) and then by via_second for cells[32..64),
// makes two runs of one pc that meet at cells[32]. The second may not
// extend the first (a run holds one call stack), or a race on its bytes
// would be reported with the first call's stack. Main's write of cells[40]
// races with via_second's read of it; the test barrier orders the threads
// without creating happens-before (report_test.cpp,
// RunsExtendedInlineKeepTheirCallStacks).
#include <pthread.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

static volatile unsigned char cells[64];
static volatile unsigned sink;
static unsigned barrier;

__attribute__((noinline)) static void read_bytes(volatile unsigned char* p, int n) {
  for (int i = 0; i < n; i++) sink += p[i];
}
__attribute__((noinline)) static void via_first(void) { read_bytes(cells, 32); }
__attribute__((noinline)) static void via_second(void) { read_bytes(cells + 32, 32); }

static void* worker(void* arg) {
  __tsan_testonly_barrier_wait(&barrier);
  via_first();
  via_second();
  return arg;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cells[40] = 7;
  __tsan_testonly_barrier_wait(&barrier);
  pthread_join(t, 0);
  return 0;
}
