/* __sanitizer_unaligned_store32/load32 are checked accesses: T stores 4 bytes
 * at bytes+3; afterwards in time (test barrier, no happens-before) main loads
 * 4 bytes at bytes+5, overlapping two of them: a race. */
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include "test_barrier.h"

char bytes[16];
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  __sanitizer_unaligned_store32(bytes + 3, 0x01020304u);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  const unsigned v = __sanitizer_unaligned_load32(bytes + 5);
  pthread_join(t, 0);
  return v == 0x0102u ? 0 : 1;
}
