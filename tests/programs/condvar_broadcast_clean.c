/* Several waiters sleep on one condition variable until main publishes a
 * configuration and broadcasts: each waiter reads the configuration after
 * re-acquiring the mutex, so clean. */
#include <pthread.h>

enum { kWaiters = 5 };

int config[4];
int published;
static pthread_mutex_t config_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t config_published = PTHREAD_COND_INITIALIZER;

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&config_mutex);
  while (!published) pthread_cond_wait(&config_published, &config_mutex);
  pthread_mutex_unlock(&config_mutex);
  /* config is never written again, so reading it outside the lock is fine */
  long sum = config[0] + config[1] + config[2] + config[3];
  return (void *)sum;
}

int main(void) {
  pthread_t t[kWaiters];
  for (int i = 0; i < kWaiters; i++) pthread_create(&t[i], 0, waiter, 0);
  for (int i = 0; i < 4; i++) config[i] = i + 1;
  pthread_mutex_lock(&config_mutex);
  published = 1;
  pthread_cond_broadcast(&config_published);
  pthread_mutex_unlock(&config_mutex);
  int bad = 0;
  for (int i = 0; i < kWaiters; i++) {
    void *sum;
    pthread_join(t[i], &sum);
    bad += (long)sum != 10;
  }
  return bad;
}
