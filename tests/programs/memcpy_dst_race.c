/* memcpy writes a 64-byte range; another thread writes one byte inside that
 * range without synchronization: a race (memcpy is a range access). */
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

char source_buf[64];
char dest_buf[64];
size_t copy_size = 64; /* a variable, so the copy stays a real memcpy */
static unsigned order;

static void *copier(void *arg) {
  (void)arg;
  memcpy(dest_buf, source_buf, copy_size);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  memset(source_buf, 'a', sizeof source_buf);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, copier, 0);
  __tsan_testonly_barrier_wait(&order);
  dest_buf[40] = 'z';
  pthread_join(t, 0);
  return dest_buf[0] == 'a' ? 0 : 1;
}
