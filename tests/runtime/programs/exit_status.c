// A race, then a non-zero exit status chosen by the program (argv[1]): the
// runtime keeps a non-zero status and turns 0 into its exitcode.
#include <pthread.h>
#include <stdlib.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

static unsigned barrier;
int first, second;

static void* worker(void* arg) {
  (void)arg;
  first = 1;
  second = 1;
  __tsan_testonly_barrier_wait(&barrier);
  return NULL;
}

int main(int argc, char** argv) {
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  __tsan_testonly_barrier_wait(&barrier);
  first = 2;   // first distinct race
  second = 2;  // second distinct race
  pthread_join(t, NULL);
  return argc > 1 ? atoi(argv[1]) : 0;
}
