/* Thread A writes a large block and frees it; thread B (ordered after A only
 * in time, by the test barrier) allocates a block of the same size, usually
 * at the same address, and writes it. Freeing ends the old block's history,
 * so B's writes are clean. After joining, main reuses memory freed by the
 * threads the same way. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_barrier.h"

enum { kSize = 512 * 1024 };
static unsigned order;

static void *first_owner(void *arg) {
  (void)arg;
  char *block = malloc(kSize);
  memset(block, 1, kSize);
  uintptr_t where = (uintptr_t)block;
  free(block);
  __tsan_testonly_barrier_wait(&order);
  return (void *)where;
}

static void *second_owner(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  char *block = malloc(kSize);
  memset(block, 2, kSize);
  block[17] = 3;
  return block; /* handed to main through the join */
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t a, b;
  pthread_create(&a, 0, first_owner, 0);
  pthread_create(&b, 0, second_owner, 0);
  void *first, *second;
  pthread_join(a, &first);
  pthread_join(b, &second);
  char *block = second;
  int ok = block[17] == 3 && block[18] == 2;
  free(block);
  char *again = malloc(kSize); /* freed by another thread, used after the join */
  memset(again, 4, kSize);
  free(again);
  return ok && first != 0 ? 0 : 1;
}
