/* A race, after which main returns 0 without joining the (still blocked)
 * other thread: the race must still be reported and the exit status become
 * 66. */
#include <pthread.h>
#include <semaphore.h>

#include "test_barrier.h"

int flag_word;
static sem_t never_posted;
static unsigned order;

static void *worker(void *arg) {
  (void)arg;
  flag_word = 1;
  __tsan_testonly_barrier_wait(&order);
  sem_wait(&never_posted);
  return 0;
}

int main(void) {
  sem_init(&never_posted, 0, 0);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __tsan_testonly_barrier_wait(&order);
  flag_word = 2;
  return 0; /* no join */
}
