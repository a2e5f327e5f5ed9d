/* A recursive mutex locked twice (nested) by each thread; the shared data is
 * written at both nesting levels and after the inner unlock, while the mutex
 * is still held: clean. */
#include <pthread.h>

enum { kThreads = 3, kRounds = 300 };

long outer_count, inner_count;
static pthread_mutex_t recursive;

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    pthread_mutex_lock(&recursive);
    pthread_mutex_lock(&recursive);
    inner_count++;
    pthread_mutex_unlock(&recursive);
    outer_count++; /* still held once */
    pthread_mutex_unlock(&recursive);
  }
  return 0;
}

int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&recursive, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  pthread_mutex_destroy(&recursive);
  return outer_count == kThreads * kRounds && inner_count == outer_count ? 0 : 1;
}
