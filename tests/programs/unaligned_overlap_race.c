/* An unaligned 8-byte field (offset 1 of a packed struct, so it straddles
 * two 8-byte words) written by one thread, and a byte at offset 6, inside
 * that field, written by another: they overlap, so a race. */
#include <pthread.h>
#include <stdint.h>

#include "test_barrier.h"

struct __attribute__((packed)) Header {
  uint8_t tag;
  uint64_t length; /* bytes 1..8 */
  uint8_t tail[7];
};

union {
  struct Header header;
  uint8_t bytes[16];
} record;
static unsigned order;

static void *length_writer(void *arg) {
  (void)arg;
  record.header.length = 0x1122334455667788ull;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, length_writer, 0);
  __tsan_testonly_barrier_wait(&order);
  record.bytes[6] = 0;
  pthread_join(t, 0);
  return 0;
}
