/* A thread fills a result; main reads it after pthread_join: the join orders
 * the thread's writes before main's reads, so clean. */
#include <pthread.h>

enum { kSlots = 64 };
int results[kSlots];

static void *producer(void *arg) {
  (void)arg;
  for (int i = 0; i < kSlots; i++) results[i] = i * i;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  long sum = 0;
  for (int i = 0; i < kSlots; i++) sum += results[i];
  return sum == 85344 ? 0 : 1;
}
