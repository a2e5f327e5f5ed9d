/* Two threads write the same variable while each holds the READ side of an
 * annotated custom reader-writer lock (custom_mutex.h). Read locks do not
 * order their holders, so this is a race, although the lock's own atomics
 * (acquire/release) would order the two threads if they were observed. */
#include <pthread.h>

#include "custom_mutex.h"
#include "test_barrier.h"

static custom_rwlock lock;
static unsigned order;
int shared;

static void* reader(void* arg) {
  (void)arg;
  custom_read_lock(&lock);
  shared = 1;
  custom_read_unlock(&lock);
  __tsan_testonly_barrier_wait(&order);
  return NULL;
}

int main(void) {
  custom_rwlock_init(&lock);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  __tsan_testonly_barrier_wait(&order);
  custom_read_lock(&lock);
  shared = 2; /* races: both threads hold only the read side */
  custom_read_unlock(&lock);
  pthread_join(t, NULL);
  return 0;
}
