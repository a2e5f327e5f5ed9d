/* mremap moves a mapping: the old range is no longer the program's memory.
 * T1 maps a page at A (inside a range main reserved), writes it, and moves it
 * to B with mremap; afterwards in time (test barrier, no happens-before) T2
 * maps a page at A with a raw mmap system call, which no runtime sees, and
 * writes it. Only the mremap tells the checker that A is new memory: clean. */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test_barrier.h"

char *reserved; /* two pages: A, then B */
int seen[2];
static unsigned order;

static void *first(void *arg) {
  (void)arg;
  char *a = mmap(reserved, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (a != MAP_FAILED) {
    a[32] = 7;
    char *b = mremap(a, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, reserved + 4096);
    if (b != MAP_FAILED) seen[0] = b[32];
  }
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

static void *second(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  char *a =
      (char *)syscall(SYS_mmap, reserved, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (a != MAP_FAILED) {
    a[32] = 8;
    seen[1] = a[32];
  }
  return 0;
}

int main(void) {
  reserved = mmap(0, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (reserved == MAP_FAILED) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t a, b;
  pthread_create(&a, 0, first, 0);
  pthread_create(&b, 0, second, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return seen[0] == 7 && seen[1] == 8 ? 0 : 1;
}
