/* Four threads increment a counter under one mutex: clean. */
#include <pthread.h>

enum { kThreads = 4, kIncrements = 2000 };

long counter;
static pthread_mutex_t counter_mutex = PTHREAD_MUTEX_INITIALIZER;

static void *incrementer(void *arg) {
  (void)arg;
  for (int i = 0; i < kIncrements; i++) {
    pthread_mutex_lock(&counter_mutex);
    counter++;
    pthread_mutex_unlock(&counter_mutex);
  }
  return 0;
}

int main(void) {
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], 0, incrementer, 0);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  return counter == kThreads * kIncrements ? 0 : 1;
}
