/* A fresh mapping is written by the thread that maps it (ThreadSanitizer's
 * model). main maps an anonymous page and hands its address to thread T
 * through a relaxed atomic (no happens-before); after the test barrier T
 * writes the page: a race with the mmap. */
#include <pthread.h>
#include <sys/mman.h>

#include "test_barrier.h"

char *page;
static unsigned order;

static void *user(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  char *p = __atomic_load_n(&page, __ATOMIC_RELAXED);
  p[100] = 1;
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, user, 0);
  char *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 2;
  __atomic_store_n(&page, p, __ATOMIC_RELAXED);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  const int value = p[100];
  munmap(p, 4096);
  return value == 1 ? 0 : 1;
}
