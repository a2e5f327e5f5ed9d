/* A race in loops the compiler vectorizes with 32-byte AVX2 accesses
 * (built with -O2 -mavx2: tests/programs/CMakeLists.txt). clang-19's
 * ThreadSanitizer pass instruments accesses of 1 to 16 bytes only, so a
 * 32-byte load or store would be checked by nobody; the wrappers compile
 * with -mprefer-vector-width=128, which keeps vectorized loops at 16 bytes
 * (docs/runtime.md, "Compiler wrappers"). T1 fills the array, main then
 * scales it in place; the test barrier orders them without happens-before.
 * Needs a CPU with AVX2. */
#include <pthread.h>
#include <stdio.h>

void __tsan_testonly_barrier_init(unsigned *barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned *barrier);

enum { kCount = 4096 };
static float samples[kCount];
static unsigned barrier;

static void *fill(void *arg) {
  for (int i = 0; i < kCount; i++) samples[i] = (float)i * 0.5f;
  __tsan_testonly_barrier_wait(&barrier);
  return arg;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
  __tsan_testonly_barrier_wait(&barrier);
  for (int i = 0; i < kCount; i++) samples[i] = samples[i] * 1.5f + 2.0f;
  pthread_join(t, 0);
  printf("%f\n", (double)samples[kCount - 1]);
  return 0;
}
