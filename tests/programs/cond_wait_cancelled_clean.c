/* A thread cancelled inside pthread_cond_wait: glibc gives it the mutex
 * back before its cleanup handler runs, so the handler's update under the
 * mutex is ordered after main's update under it. Clean (stock TSan agrees).
 * The runtime used to emit the wait's acquire only when the wait returned:
 * every run reported a race on `shared`. */
#include <pthread.h>
#include <unistd.h>

enum { kRounds = 10 };

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never_signalled = PTHREAD_COND_INITIALIZER;
static int waiting;
long shared;

static void add_and_unlock(void* arg) {
  (void)arg;
  shared += 10;
  pthread_mutex_unlock(&m);
}

static void* waiter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  waiting = 1;
  pthread_cleanup_push(add_and_unlock, 0);
  for (;;) pthread_cond_wait(&never_signalled, &m);
  pthread_cleanup_pop(1);
  return 0;
}

int main(void) {
  for (int i = 0; i < kRounds; i++) {
    pthread_t t;
    waiting = 0;
    pthread_create(&t, 0, waiter, 0);
    // Until the waiter holds the mutex and has started waiting (the wait
    // releases it).
    for (int seen = 0; !seen;) {
      pthread_mutex_lock(&m);
      seen = waiting;
      if (seen) shared++;
      pthread_mutex_unlock(&m);
      if (!seen) usleep(100);
    }
    pthread_cancel(t);
    pthread_join(t, 0);
  }
  return shared == kRounds * 11 ? 0 : 1;
}
