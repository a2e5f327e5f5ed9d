/* The producer posts the semaphore and only then writes the data: the
 * consumer's sem_wait orders it after the post, not after the write. A race
 * in every interleaving (the test barrier fixes the order in time). */
#include <pthread.h>
#include <semaphore.h>

#include "test_barrier.h"

int data;
static sem_t data_ready;
static unsigned order;

static void *producer(void *arg) {
  (void)arg;
  sem_post(&data_ready);
  data = 5; /* after the post */
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  sem_init(&data_ready, 0, 0);
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  sem_wait(&data_ready);
  __tsan_testonly_barrier_wait(&order);
  int seen = data;
  pthread_join(t, 0);
  sem_destroy(&data_ready);
  return seen == 5 ? 0 : 1;
}
