// Happens-before through a signal, as ThreadSanitizer models it: a thread
// writes, then sends a signal to the main thread; the handler reads what
// was written. Clean. (argv[1] == "late": the writer writes again after
// sending, which races with the handler's read.)
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

void __tsan_testonly_barrier_init(unsigned long long* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned long long* barrier);

static unsigned long long barrier;
static pthread_t main_thread;
static int late;
int message;
static volatile sig_atomic_t seen;

static void on_signal(int sig) {
  (void)sig;
  seen = message;
}

static void* sender(void* arg) {
  (void)arg;
  message = 42;
  pthread_kill(main_thread, SIGUSR1);
  if (late) {
    __tsan_testonly_barrier_wait(&barrier);  // after the handler ran
    message = 43;
  }
  return NULL;
}

int main(int argc, char** argv) {
  late = argc > 1 && strcmp(argv[1], "late") == 0;
  __tsan_testonly_barrier_init(&barrier, 2);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  main_thread = pthread_self();
  pthread_t t;
  pthread_create(&t, NULL, sender, NULL);
  while (!seen) usleep(1000);
  if (late) {
    int copy = message;  // read by main after the handler: ordered after the kill, not after the late write
    (void)copy;
    __tsan_testonly_barrier_wait(&barrier);
    usleep(50 * 1000);
    copy = message;  // races with the late write
    (void)copy;
  }
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
