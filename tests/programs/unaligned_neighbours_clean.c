/* For every offset 0..7 and size 2, 4 and 8, two threads write adjacent,
 * non-overlapping unaligned fields (often straddling an 8-byte boundary) with
 * no synchronization. No byte is shared: clean. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "test_barrier.h"

uint8_t buffer[8][3][24];
static unsigned order;

/* memcpy with a constant size becomes one unaligned access of that size. */
static void store_at(uint8_t *p, int size, uint64_t value) {
  switch (size) {
    case 2: {
      uint16_t v = (uint16_t)value;
      memcpy(p, &v, 2);
      break;
    }
    case 4: {
      uint32_t v = (uint32_t)value;
      memcpy(p, &v, 4);
      break;
    }
    default: memcpy(p, &value, 8); break;
  }
}

static const int kSizes[3] = {2, 4, 8};

static void write_fields(int which) {
  for (int offset = 0; offset < 8; offset++)
    for (int s = 0; s < 3; s++) {
      int size = kSizes[s];
      /* field 0 is [offset, offset+size), field 1 follows it directly */
      store_at(&buffer[offset][s][offset + which * size], size, 0x0101010101010101ull * (uint64_t)(which + 1));
    }
}

static void *second_writer(void *arg) {
  (void)arg;
  write_fields(1);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, second_writer, 0);
  __tsan_testonly_barrier_wait(&order);
  write_fields(0);
  pthread_join(t, 0);
  return buffer[3][2][3] == 1 && buffer[3][2][11] == 2 ? 0 : 1;
}
