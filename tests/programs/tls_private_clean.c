/* Every thread writes its own copy of a _Thread_local variable (same symbol,
 * different addresses) with no synchronization: clean. */
#include <pthread.h>

enum { kThreads = 4, kRounds = 1000 };

static _Thread_local long mine;

static void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < kRounds; i++) mine += id;
  return (void *)mine;
}

int main(void) {
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&t[i], 0, worker, (void *)i);
  mine = -1;
  long total = 0;
  for (int i = 0; i < kThreads; i++) {
    void *result;
    pthread_join(t[i], &result);
    total += (long)result;
  }
  return total == kRounds * (0 + 1 + 2 + 3) && mine == -1 ? 0 : 1;
}
