/* Installing a handler happens before the handler runs on a signal from
 * another thread (stock ThreadSanitizer's model): main writes `config`,
 * installs the handler, then signals a thread that was created before; the
 * handler reads `config` there. Clean. */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "test_barrier.h"

static unsigned order;
int config;
static volatile sig_atomic_t seen;

static void on_signal(int sig) {
  (void)sig;
  seen = config;
}

static void* victim(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  while (!seen) usleep(1000);
  return NULL;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, victim, NULL);
  config = 42;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  __tsan_testonly_barrier_wait(&order);
  pthread_kill(t, SIGUSR1);
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
