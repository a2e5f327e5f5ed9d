// Two races with known lines; runtime_tests match the report against them.
// The test barrier orders the threads without creating happens-before, so
// the thread's accesses are always the "previous" ones. Do not move lines
// without updating tests/runtime/report_test.cpp.
#include <pthread.h>
#include <stdlib.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

int shared_global;
static unsigned barrier;

__attribute__((noinline)) void store_to(long* p) { p[1] = 42; /* line 14: heap write in T1 */ }

static void* worker(void* arg) {
  shared_global = 1;  // line 17: global write in T1
  store_to(arg);      // line 18: the call to store_to
  __tsan_testonly_barrier_wait(&barrier);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  long* block = malloc(2 * sizeof(long));  // line 25: allocation
  pthread_t t;
  pthread_create(&t, NULL, worker, block);  // line 27: creation
  __tsan_testonly_barrier_wait(&barrier);
  int seen = shared_global;  // line 29: global read in main
  block[1] = seen;           // line 30: heap write in main
  pthread_join(t, NULL);
  free(block);
  return 0;
}
