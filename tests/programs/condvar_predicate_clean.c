/* Producer/consumer handoff with a condition variable and a predicate,
 * several items in a row: the data is written before the mutex is released
 * and read after it is acquired, so clean (whether or not the consumer
 * ever actually waits). */
#include <pthread.h>

enum { kItems = 200 };

int slot;
int slot_full;
static pthread_mutex_t slot_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t slot_changed = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg) {
  (void)arg;
  for (int i = 1; i <= kItems; i++) {
    pthread_mutex_lock(&slot_mutex);
    while (slot_full) pthread_cond_wait(&slot_changed, &slot_mutex);
    slot = i;
    slot_full = 1;
    pthread_cond_signal(&slot_changed);
    pthread_mutex_unlock(&slot_mutex);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  long sum = 0;
  for (int i = 0; i < kItems; i++) {
    pthread_mutex_lock(&slot_mutex);
    while (!slot_full) pthread_cond_wait(&slot_changed, &slot_mutex);
    sum += slot;
    slot_full = 0;
    pthread_cond_signal(&slot_changed);
    pthread_mutex_unlock(&slot_mutex);
  }
  pthread_join(t, 0);
  return sum == (long)kItems * (kItems + 1) / 2 ? 0 : 1;
}
