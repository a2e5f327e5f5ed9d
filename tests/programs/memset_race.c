/* memset of a heap block by one thread races with another thread's read of
 * the block's last byte. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_barrier.h"

size_t block_size = 256;
static unsigned order;

static void *clearer(void *arg) {
  memset(arg, 0, block_size);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  char *block = malloc(block_size);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, clearer, block);
  __tsan_testonly_barrier_wait(&order);
  char last = block[block_size - 1];
  pthread_join(t, 0);
  free(block);
  return last == 0 ? 0 : 1;
}
