/* A 16-byte vector store by one thread and a 4-byte store to its last four
 * bytes by another: they overlap, so a race (16-byte accesses are checked on
 * all 16 bytes). */
#include <pthread.h>

#include "test_barrier.h"

typedef int int4 __attribute__((vector_size(16)));

int4 lanes[2];
static unsigned order;

static void *vector_writer(void *arg) {
  (void)arg;
  int4 value = {1, 2, 3, 4};
  lanes[0] = value;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, vector_writer, 0);
  __tsan_testonly_barrier_wait(&order);
  ((int *)lanes)[3] = 40;
  pthread_join(t, 0);
  return 0;
}
