/* An eventfd carries happens-before from a write to the read that returns
 * the count: T writes `data`, then adds 1 to the eventfd; main reads the
 * count and then `data`: clean. */
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

int data;
int event;

static void *producer(void *arg) {
  (void)arg;
  data = 11;
  uint64_t one = 1;
  return write(event, &one, sizeof one) == sizeof one ? 0 : (void *)1;
}

int main(void) {
  event = eventfd(0, 0);
  if (event < 0) return 2;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  uint64_t count = 0;
  if (read(event, &count, sizeof count) != sizeof count) return 2;
  const int value = data;
  pthread_join(t, 0);
  close(event);
  return value == 11 && count == 1 ? 0 : 1;
}
