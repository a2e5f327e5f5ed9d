/* The reader sleeps "long enough" for the writer to have written. Sleeping
 * orders nothing by happens-before: a race, whatever the timing. (The test
 * barrier makes the write come first in time on every run.) */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

int config;
static unsigned order;

static void *late_reader(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  usleep(20 * 1000); /* "the writer is surely done by now" */
  return (void *)(long)config;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, late_reader, 0);
  config = 5;
  __tsan_testonly_barrier_wait(&order);
  void *seen;
  pthread_join(t, &seen);
  return (long)seen == 5 ? 0 : 1;
}
