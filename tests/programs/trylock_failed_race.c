/* The owner holds the mutex while writing; the other thread's trylock fails
 * (EBUSY), and it reads anyway. A failed trylock acquires nothing: a race. */
#include <errno.h>
#include <pthread.h>

#include "test_barrier.h"

int guarded;
static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;
static unsigned order;

static void *owner(void *arg) {
  (void)arg;
  pthread_mutex_lock(&guard);
  guarded = 1;
  __tsan_testonly_barrier_wait(&order); /* hold the mutex while main tries */
  __tsan_testonly_barrier_wait(&order);
  pthread_mutex_unlock(&guard);
  return 0;
}

int main(void) {
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, owner, 0);
  __tsan_testonly_barrier_wait(&order);
  int busy = pthread_mutex_trylock(&guard) == EBUSY;
  int seen = guarded; /* read although the trylock failed */
  __tsan_testonly_barrier_wait(&order);
  pthread_join(t, 0);
  return busy && seen == 1 ? 0 : 1;
}
