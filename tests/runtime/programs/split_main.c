// Built in separate steps (raceaccel-cc -c for each file, then a link-only
// raceaccel-cc call): a race between this file's main and split_worker.c.
#include <pthread.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);
void* split_worker(void* arg);

long split_counter;
unsigned split_barrier;

int main(void) {
  __tsan_testonly_barrier_init(&split_barrier, 2);
  pthread_t t;
  pthread_create(&t, NULL, split_worker, NULL);
  __tsan_testonly_barrier_wait(&split_barrier);
  split_counter += 2;  // line 17: races with split_worker.c:9
  pthread_join(t, NULL);
  return 0;
}
