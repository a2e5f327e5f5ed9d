/* A 4-byte write and a 1-byte write at offset 2 inside it, by two threads:
 * they share byte 2, so this is a race (byte granularity, not word). */
#include <pthread.h>
#include <stdint.h>

#include "test_barrier.h"

union {
  uint32_t whole;
  uint8_t bytes[4];
} cell;
static unsigned order;

static void *whole_writer(void *arg) {
  (void)arg;
  cell.whole = 0x01020304u;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, whole_writer, 0);
  __tsan_testonly_barrier_wait(&order);
  cell.bytes[2] = 0x55;
  pthread_join(t, 0);
  return 0;
}
