/* Detached threads are never joined, and the C library reuses a finished
 * thread's stack (and the TLS block inside it) for the next thread. Each
 * thread here writes its stack and TLS after its last synchronization, so the
 * next thread's writes to the same (reused) memory are not ordered after
 * them by happens-before. A new thread's stack and TLS are fresh memory,
 * like a new malloc block, so this is clean: the runtime must forget the
 * old history of a thread's stack and TLS when it ends or starts. */
#include <pthread.h>
#include <semaphore.h>

enum { kGenerations = 30 };

_Thread_local long tls_scratch[32];
static sem_t finished;

/* Not inlined, so the accesses to the caller's stack array are instrumented. */
__attribute__((noinline)) static long fill(long *p, int n, long seed) {
  long sum = 0;
  for (int i = 0; i < n; i++) {
    p[i] = seed + i;
    sum += p[i];
  }
  return sum;
}

static void *stack_user(void *arg) {
  long seed = (long)arg;
  long locals[64];
  long sum = fill(locals, 64, seed);
  sem_post(&finished);
  /* After the post: nothing orders these with the next generation. */
  sum += fill(locals, 64, seed + 1);
  for (int i = 0; i < 32; i++) tls_scratch[i] = seed * i;
  for (int i = 0; i < 32; i++) sum += tls_scratch[i];
  return (void *)sum;
}

int main(void) {
  sem_init(&finished, 0, 0);
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  for (long g = 0; g < kGenerations; g++) {
    pthread_t t;
    pthread_create(&t, &detached, stack_user, (void *)g);
    sem_wait(&finished);
  }
  pthread_attr_destroy(&detached);
  return 0;
}
