// One instruction loading 16 bytes at 8-byte steps: after the first load,
// each one's first half was read by the load before it, so coalescing adds
// only its second half to the run (a unit of 8 bytes, where the first load
// added 16: the run's pattern is [whole, second half x 7], learned by
// lanes[6]). At lanes[7] the pattern expects a whole load, so a new run
// starts at lanes[8]. T1 writes lanes[8]; main's load that first reads it
// is the one at lanes[7], and the report must name that load's address, as
// stock TSan does (report_test.cpp,
// OverlappingLoadsOfOneInstructionNameTheirOwnAddress): a run extended
// with a load whose covered prefix its pattern does not expect names
// lanes[8] instead.
// The test barrier orders the threads without creating happens-before.
#include <pthread.h>
#include <stdio.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

typedef long pair __attribute__((vector_size(16), aligned(8)));
static volatile long lanes[40];
static unsigned barrier;

static void* worker(void* arg) {
  lanes[8] = 1;
  __tsan_testonly_barrier_wait(&barrier);
  return arg;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&barrier);
  long sum = 0;
  for (int i = 0; i + 1 < 40; i++) sum += (*(volatile pair*)&lanes[i])[1];
  pthread_join(t, 0);
  printf("lanes[7]=%p\n", (void*)&lanes[7]);
  return sum == -1;
}
