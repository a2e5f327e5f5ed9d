// A thread that faults while the runtime reports at exit: main and a worker
// race on 90 globals at 90 pairs of sites (their accesses still buffered
// when main returns), so the runtime's exit handler has 90 reports to make;
// the worker waits until the program's own exit handler has run (a relaxed
// atomic flag: no happens-before, nothing drained) and faults at once,
// often while those reports are being written. Its signal's default action must
// wait for them: the runtime's fault handler finalized a second time, found
// the finalization begun, and let the fault end the process with the
// reports cut short (a probe saw 0 to 87 of 301).
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

enum { kPairs = 100 };  // pairs 10..99: 90 of them
long g[kPairs];
static int exiting;  // relaxed atomics: no happens-before, no race

#define PAIR(i)                                           \
  __attribute__((noinline)) void a##i(void) { g[i] = 1; } \
  __attribute__((noinline)) void b##i(void) { g[i] = 2; }
#define TEN(d) \
  PAIR(d##0) PAIR(d##1) PAIR(d##2) PAIR(d##3) PAIR(d##4) PAIR(d##5) PAIR(d##6) PAIR(d##7) PAIR(d##8) PAIR(d##9)
#define CALLS(p, d) \
  p##d##0();        \
  p##d##1();        \
  p##d##2();        \
  p##d##3();        \
  p##d##4();        \
  p##d##5();        \
  p##d##6();        \
  p##d##7();        \
  p##d##8();        \
  p##d##9();
TEN(1)
TEN(2) TEN(3) TEN(4) TEN(5) TEN(6) TEN(7) TEN(8) TEN(9)

    static void* worker(void* arg) {
  (void)arg;
  CALLS(a, 1)
  CALLS(a, 2) CALLS(a, 3) CALLS(a, 4) CALLS(a, 5) CALLS(a, 6) CALLS(a, 7) CALLS(a, 8)
      CALLS(a, 9) while (!__atomic_load_n(&exiting, __ATOMIC_RELAXED)) usleep(50);
  *(volatile int*)arg = 0;  // arg is null: SIGSEGV
  return 0;
}

static void set_exiting(void) { __atomic_store_n(&exiting, 1, __ATOMIC_RELAXED); }

int main(void) {
  atexit(set_exiting);  // runs before the runtime's own exit handler
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  usleep(20 * 1000);  // the worker's writes come first (no matter: they race either way)
  CALLS(b, 1) CALLS(b, 2) CALLS(b, 3) CALLS(b, 4) CALLS(b, 5) CALLS(b, 6) CALLS(b, 7) CALLS(b, 8) CALLS(b, 9) return 0;
}
