/* The try and timed forms of both rwlock sides: tryrdlock/timedrdlock
 * readers and trywrlock/timedwrlock writers over the same data. Every
 * successful acquisition synchronizes like its plain form: clean. */
#include <pthread.h>
#include <sched.h>
#include <time.h>

enum { kRounds = 200 };

long value;
static pthread_rwlock_t value_lock = PTHREAD_RWLOCK_INITIALIZER;

static struct timespec far_deadline(void) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 30;
  return deadline;
}

static void *try_writer(void *arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    while (pthread_rwlock_trywrlock(&value_lock) != 0) sched_yield();
    value++;
    pthread_rwlock_unlock(&value_lock);
  }
  return 0;
}

static void *timed_writer(void *arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    struct timespec deadline = far_deadline();
    if (pthread_rwlock_timedwrlock(&value_lock, &deadline) != 0) return (void *)1;
    value++;
    pthread_rwlock_unlock(&value_lock);
  }
  return 0;
}

static void *mixed_reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int i = 0; i < kRounds; i++) {
    if (i % 2) {
      while (pthread_rwlock_tryrdlock(&value_lock) != 0) sched_yield();
    } else {
      struct timespec deadline = far_deadline();
      if (pthread_rwlock_timedrdlock(&value_lock, &deadline) != 0) return (void *)1;
    }
    sum += value;
    pthread_rwlock_unlock(&value_lock);
  }
  return sum >= 0 ? 0 : (void *)1;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, try_writer, 0);
  pthread_create(&t[1], 0, timed_writer, 0);
  pthread_create(&t[2], 0, mixed_reader, 0);
  int failures = 0;
  for (int i = 0; i < 3; i++) {
    void *result;
    pthread_join(t[i], &result);
    failures += result != 0;
  }
  return failures == 0 && value == 2 * kRounds ? 0 : 1;
}
