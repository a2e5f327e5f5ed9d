// Call stacks after longjmp: deep() and deeper() are left by a longjmp back
// into jumper(), which then writes a global another thread also writes.
// The report must show jumper called from main, with no frame of the
// functions the jump left.
#include <pthread.h>
#include <setjmp.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

static unsigned barrier;
static jmp_buf target;
int shared;

__attribute__((noinline)) static void deeper(int n) {
  if (n > 0) longjmp(target, n);
}
__attribute__((noinline)) static void deep(int n) {
  deeper(n);
  shared += n;  // never reached
}

__attribute__((noinline)) static void jumper(void) {
  if (setjmp(target) == 0) deep(1);
  shared = 2;  // races with the worker's write
}

static void* worker(void* arg) {
  (void)arg;
  shared = 1;
  __tsan_testonly_barrier_wait(&barrier);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  __tsan_testonly_barrier_wait(&barrier);
  jumper();
  pthread_join(t, NULL);
  return 0;
}
