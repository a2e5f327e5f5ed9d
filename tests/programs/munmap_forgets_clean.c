/* munmap clears the history of the range. T1 maps a page, writes it and
 * unmaps it; afterwards in time (test barrier, no happens-before) T2 maps a
 * page at the same address with a raw mmap system call, which no runtime
 * sees, and writes it. Only the munmap tells the checker that T2's page is
 * not T1's: clean. */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test_barrier.h"

char *reserved;
int seen[2];
static unsigned order;

static void *first(void *arg) {
  (void)arg;
  char *p = mmap(reserved, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (p != MAP_FAILED) {
    p[16] = 5;
    seen[0] = p[16];
    munmap(p, 4096);
  }
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

static void *second(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  char *p =
      (char *)syscall(SYS_mmap, reserved, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (p != MAP_FAILED) {
    p[16] = 6;
    seen[1] = p[16];
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
  return seen[0] == 5 && seen[1] == 6 ? 0 : 1;
}
