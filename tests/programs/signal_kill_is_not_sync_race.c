/* Sending a signal is not synchronization (stock ThreadSanitizer's model):
 * a thread writes, then sends a signal to the main thread with
 * pthread_kill; the handler's read of what was written races with the
 * write. */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static pthread_t main_thread;
int message;
static volatile sig_atomic_t seen;

static void on_signal(int sig) {
  (void)sig;
  seen = message; /* races with the sender's write */
}

static void* sender(void* arg) {
  (void)arg;
  message = 42;
  pthread_kill(main_thread, SIGUSR1);
  return NULL;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  main_thread = pthread_self();
  pthread_t t;
  pthread_create(&t, NULL, sender, NULL);
  while (!seen) usleep(1000);
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
