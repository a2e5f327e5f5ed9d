/* A handler that its own thread raises runs synchronously, in that thread's
 * program order, without acquiring the installation (stock
 * ThreadSanitizer's model): main writes `config` and installs the handler;
 * another thread, created before, raises the signal; the handler's read of
 * `config` races with main's write. */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "test_barrier.h"

static unsigned order;
int config;
static volatile sig_atomic_t seen;

static void on_signal(int sig) {
  (void)sig;
  seen = config; /* races with main's write */
}

static void* raiser(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* after the installation, in time only */
  raise(SIGUSR1);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, raiser, NULL);
  config = 42;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
