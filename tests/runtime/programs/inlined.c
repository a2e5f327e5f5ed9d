// Inlined frames in reports: bump() is always inlined into both callers,
// and the report must show it as its own frame with its caller's line.
#include <pthread.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

long counter;
static unsigned barrier;

static inline __attribute__((always_inline)) void bump(long* p) {
  *p = *p + 1;  // line 12
}

static void* worker(void* arg) {
  (void)arg;
  bump(&counter);  // line 17
  __tsan_testonly_barrier_wait(&barrier);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  __tsan_testonly_barrier_wait(&barrier);
  bump(&counter);  // line 27
  pthread_join(t, NULL);
  return 0;
}
