/* A condition variable's signal is not synchronization by itself: the
 * signaller writes `data` and signals without the mutex, the waiter wakes
 * (or sees the relaxed flag) and reads `data`. Nothing orders the write
 * before the read (C++ memory model, ThreadSanitizer): a race. */
#include <pthread.h>
#include <time.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int flag;
int data;

static void* signaller(void* arg) {
  (void)arg;
  data = 42;
  __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
  pthread_cond_signal(&cond);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, signaller, NULL);
  pthread_mutex_lock(&mutex);
  while (!__atomic_load_n(&flag, __ATOMIC_RELAXED)) {
    struct timespec soon;
    clock_gettime(CLOCK_REALTIME, &soon);
    soon.tv_nsec += 1000000;
    if (soon.tv_nsec >= 1000000000) soon.tv_sec += 1, soon.tv_nsec -= 1000000000;
    pthread_cond_timedwait(&cond, &mutex, &soon);
  }
  pthread_mutex_unlock(&mutex);
  int seen = data; /* races with the signaller's write */
  pthread_join(t, NULL);
  return seen == 42 ? 0 : 1;
}
