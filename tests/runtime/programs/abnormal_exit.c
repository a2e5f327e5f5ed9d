// A race whose second access is still in the main thread's buffer when the
// process ends abnormally (argv[1]): abort, _exit, _Exit, exec, a segfault,
// SIGTERM while sleeping, an uncaught signal from another thread. The
// runtime must check and report it on every path that can run code.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned* barrier);

static unsigned barrier;
int shared;

static void* worker(void* arg) {
  (void)arg;
  shared = 1;
  __tsan_testonly_barrier_wait(&barrier);
  return NULL;
}

static void* killer(void* arg) {
  (void)arg;
  usleep(100 * 1000);  // main is asleep by then
  kill(getpid(), SIGTERM);
  return NULL;
}

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "return";
  if (strcmp(how, "bad_barrier") == 0) {  // a count the barrier word cannot hold: a usage error
    static unsigned wide;
    __tsan_testonly_barrier_init(&wide, 1024);
    return 0;
  }
  __tsan_testonly_barrier_init(&barrier, 2);
  pthread_t t, k;
  // Created first: creating a thread checks the creator's buffered accesses.
  if (strcmp(how, "sigterm") == 0) pthread_create(&k, NULL, killer, NULL);
  pthread_create(&t, NULL, worker, NULL);
  __tsan_testonly_barrier_wait(&barrier);
  shared = 2;  // the race: unordered with the worker's write
  if (strcmp(how, "abort") == 0) abort();
  if (strcmp(how, "_exit") == 0) _exit(0);
  if (strcmp(how, "_Exit") == 0) _Exit(0);
  if (strcmp(how, "exec") == 0) {
    execl("/bin/true", "true", (char*)NULL);
    return 99;
  }
  if (strcmp(how, "segv") == 0) {
    volatile int* nowhere = NULL;
    return *nowhere;
  }
  if (strcmp(how, "sigterm") == 0) {
    for (;;) pause();
  }
  pthread_join(t, NULL);
  return 0;
}
