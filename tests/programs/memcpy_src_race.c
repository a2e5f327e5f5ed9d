/* memcpy READS its source range; another thread wrote a byte of that range
 * without synchronization: a race (read side of a range access). */
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

char source_buf[128];
char dest_buf[128];
size_t copy_size = 128;
static unsigned order;

static void *scribbler(void *arg) {
  (void)arg;
  source_buf[100] = 'x';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, scribbler, 0);
  __tsan_testonly_barrier_wait(&order);
  memcpy(dest_buf, source_buf, copy_size);
  pthread_join(t, 0);
  return dest_buf[100] == 'x' ? 0 : 1;
}
