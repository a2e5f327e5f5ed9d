/* A 1-byte write to byte 5 of an 8-byte word races with an 8-byte read of
 * the whole word by another thread: the accesses overlap in one byte. */
#include <pthread.h>
#include <stdint.h>

#include "test_barrier.h"

union {
  uint64_t word;
  uint8_t bytes[8];
} cell;
static unsigned order;

static void *byte_writer(void *arg) {
  (void)arg;
  cell.bytes[5] = 0xff;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, byte_writer, 0);
  __tsan_testonly_barrier_wait(&order);
  uint64_t seen = cell.word;
  pthread_join(t, 0);
  return seen == 0xff0000000000ull ? 0 : 1;
}
