/* The same pair of source lines races 1000 times (on 1000 different bytes):
 * exactly one report, because reports are per distinct pair of sites. */
#include <pthread.h>

#include "test_barrier.h"

enum { kCells = 1000 };
char cells[kCells];
static unsigned order;

static void *filler(void *arg) {
  (void)arg;
  for (int i = 0; i < kCells; i++) cells[i] = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, filler, 0);
  __tsan_testonly_barrier_wait(&order);
  int sum = 0;
  for (int i = 0; i < kCells; i++) sum += cells[i];
  pthread_join(t, 0);
  return sum == kCells ? 0 : 1;
}
