// One thread destroys a barrier as soon as its own wait returns, while the
// other participants may still be leaving the wait. ThreadSanitizer does not
// report this (the barrier is not read after the wait); clean.
#include <pthread.h>

static pthread_barrier_t barrier;
int before;

static void* worker(void* arg) {
  (void)arg;
  pthread_barrier_wait(&barrier);
  return NULL;
}

int main(void) {
  pthread_barrier_init(&barrier, NULL, 4);
  pthread_t t[3];
  for (int i = 0; i < 3; ++i) pthread_create(&t[i], NULL, worker, NULL);
  pthread_barrier_wait(&barrier);
  pthread_barrier_destroy(&barrier); /* races with the other threads leaving the wait */
  for (int i = 0; i < 3; ++i) pthread_join(t[i], NULL);
  return 0;
}
