/* AnnotateIgnoreSyncBegin/End: T's lock and unlock inside the region are not
 * synchronization, so its write under the mutex does not happen before
 * main's later write under the same mutex (ordered in time by the test
 * barrier): a race. */
#include <pthread.h>

#include "test_barrier.h"

void AnnotateIgnoreSyncBegin(const char *file, int line);
void AnnotateIgnoreSyncEnd(const char *file, int line);

int shared;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
  pthread_mutex_lock(&lock);
  shared = 1;
  pthread_mutex_unlock(&lock);
  AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_lock(&lock);
  shared = 2;
  pthread_mutex_unlock(&lock);
  pthread_join(t, 0);
  return shared == 2 ? 0 : 1;
}
