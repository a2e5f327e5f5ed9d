/* One thread updates under the spinlock (also via pthread_spin_trylock), the
 * other forgets the lock: a race. */
#include <pthread.h>

#include "test_barrier.h"

long spins;
static pthread_spinlock_t spin;
static unsigned order;

static void *locked_side(void *arg) {
  (void)arg;
  pthread_spin_lock(&spin);
  spins++;
  pthread_spin_unlock(&spin);
  while (pthread_spin_trylock(&spin) != 0) {
  }
  spins++;
  pthread_spin_unlock(&spin);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  pthread_t t;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_create(&t, 0, locked_side, 0);
  __tsan_testonly_barrier_wait(&order);
  spins += 10; /* no lock */
  pthread_join(t, 0);
  pthread_spin_destroy(&spin);
  return spins == 12 ? 0 : 1;
}
