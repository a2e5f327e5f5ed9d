/* An overlapping memmove (shifting a buffer left by 8) reads bytes 8..71 and
 * writes 0..63; another thread writes byte 70, inside the read range only:
 * a race. */
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

char buffer[96];
size_t move_size = 64;
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  buffer[70] = 'w';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  memmove(buffer, buffer + 8, move_size);
  pthread_join(t, 0);
  return buffer[62] == 'w' ? 0 : 1;
}
