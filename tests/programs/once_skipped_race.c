/* One thread initializes through pthread_once; another reads the table
 * without calling pthread_once (it "knows" init has run). Without the call
 * there is no ordering: a race. */
#include <pthread.h>

#include "test_barrier.h"

int lookup[8];
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;
static unsigned order;

static void build_lookup(void) {
  for (int i = 0; i < 8; i++) lookup[i] = i + 1;
}

static void *initializer(void *arg) {
  (void)arg;
  pthread_once(&lookup_once, build_lookup);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, initializer, 0);
  __tsan_testonly_barrier_wait(&order);
  int seen = lookup[3]; /* no pthread_once here */
  pthread_join(t, 0);
  return seen == 4 ? 0 : 1;
}
