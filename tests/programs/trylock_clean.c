/* Threads acquire the mutex by spinning on pthread_mutex_trylock and update
 * shared data while holding it. A successful trylock is an acquire: clean. */
#include <pthread.h>
#include <sched.h>

enum { kThreads = 3, kRounds = 500 };

long total;
static pthread_mutex_t total_mutex = PTHREAD_MUTEX_INITIALIZER;

static void *adder(void *arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    while (pthread_mutex_trylock(&total_mutex) != 0) sched_yield();
    total += 2;
    pthread_mutex_unlock(&total_mutex);
  }
  return 0;
}

int main(void) {
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], 0, adder, 0);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  return total == 2 * kThreads * kRounds ? 0 : 1;
}
