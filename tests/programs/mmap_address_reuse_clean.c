/* Two threads with no happens-before between them use the same address, one
 * after the other in time (test barrier): T1 maps a page there (MAP_FIXED
 * inside a range main reserved), writes it and unmaps it; then T2 maps a new
 * page at the same address and writes it. The second mapping is new memory:
 * clean. A checker that kept the first mapping's history would report T2's
 * write (and its mmap) against T1's write. */
#include <pthread.h>
#include <sys/mman.h>

#include "test_barrier.h"

char *reserved;
int seen[2];
static unsigned order;

static char *map_here(void) {
  return mmap(reserved, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

static void *first(void *arg) {
  (void)arg;
  char *p = map_here();
  if (p != MAP_FAILED) {
    p[8] = 1;
    seen[0] = p[8];
    munmap(p, 4096);
  }
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

static void *second(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  char *p = map_here();
  if (p != MAP_FAILED) {
    seen[1] = p[8] + 2; /* a fresh page reads 0 */
    p[8] = 3;
  }
  return 0;
}

int main(void) {
  reserved = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (reserved == MAP_FAILED) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t a, b;
  pthread_create(&a, 0, first, 0);
  pthread_create(&b, 0, second, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return seen[0] == 1 && seen[1] == 2 ? 0 : 1;
}
