/* Threads take the mutex with pthread_mutex_timedlock (generous deadline)
 * and update shared data under it: clean. */
#include <pthread.h>
#include <time.h>

enum { kThreads = 3, kRounds = 300 };

long ticks;
static pthread_mutex_t ticks_mutex = PTHREAD_MUTEX_INITIALIZER;

static void *ticker(void *arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 30;
    if (pthread_mutex_timedlock(&ticks_mutex, &deadline) != 0) return (void *)1;
    ticks++;
    pthread_mutex_unlock(&ticks_mutex);
  }
  return 0;
}

int main(void) {
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], 0, ticker, 0);
  int failures = 0;
  for (int i = 0; i < kThreads; i++) {
    void *result;
    pthread_join(t[i], &result);
    failures += result != 0;
  }
  return failures == 0 && ticks == kThreads * kRounds ? 0 : 1;
}
