/* Signals that reach a thread at the very start of its life (sent right
 * after pthread_create, before its start routine runs), during its work and
 * during its exit are handled by that thread: the handler's updates of the
 * thread's own thread-local counter and the start routine's are one
 * thread's, in program order. Clean (stock TSan agrees). Each of kThreads
 * threads is sent a burst of kSignals signals. */
#include <pthread.h>
#include <signal.h>
#include <string.h>

enum { kThreads = 64, kSignals = 32 };

static __thread long hits;  // each thread's own

static void on_signal(int sig) {
  (void)sig;
  hits++;
}

static void* worker(void* arg) {
  hits += 1000;
  for (long i = 0; i < (long)arg; i++) hits += 2;
  return (void*)hits;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  long total = 0;
  for (long round = 0; round < kThreads; round++) {
    pthread_t t;
    if (pthread_create(&t, NULL, worker, (void*)(round * 16)) != 0) return 2;
    for (int k = 0; k < kSignals; k++) pthread_kill(t, SIGUSR1);
    void* result;
    pthread_join(t, &result);
    total += (long)result;
  }
  return total >= kThreads * 1000L ? 0 : 1;
}
