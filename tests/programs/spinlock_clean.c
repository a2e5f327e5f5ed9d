/* A pthread spinlock protects a counter shared by three threads: clean. */
#include <pthread.h>

enum { kThreads = 3, kRounds = 1000 };

long spins;
static pthread_spinlock_t spin;

static void *spinner(void *arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    pthread_spin_lock(&spin);
    spins++;
    pthread_spin_unlock(&spin);
  }
  return 0;
}

int main(void) {
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], 0, spinner, 0);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  pthread_spin_destroy(&spin);
  return spins == kThreads * kRounds ? 0 : 1;
}
