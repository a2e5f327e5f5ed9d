/* memcpy, memset and memmove by different threads on adjacent but disjoint
 * ranges of one buffer (boundaries inside 8-byte words), with no
 * synchronization: no byte is shared, so clean. */
#include <pthread.h>
#include <string.h>

#include "test_barrier.h"

char buffer[200];
char source_buf[64];
size_t n27 = 27, n30 = 30, n40 = 40;
static unsigned order;

static void *other_side(void *arg) {
  (void)arg;
  memset(buffer + 27, 'b', n30);            /* bytes 27..56 */
  memmove(buffer + 101, buffer + 130, n40); /* reads 130..169, writes 101..140 */
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  memset(source_buf, 'a', sizeof source_buf);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, other_side, 0);
  memcpy(buffer, source_buf, n27);       /* bytes 0..26 */
  memset(buffer + 57, 'c', n40);         /* bytes 57..96 */
  memcpy(buffer + 170, source_buf, n30); /* bytes 170..199 */
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  return buffer[26] == 'a' && buffer[27] == 'b' && buffer[57] == 'c' ? 0 : 1;
}
