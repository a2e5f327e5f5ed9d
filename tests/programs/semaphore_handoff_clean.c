/* A bounded buffer with two semaphores (free slots, filled slots): every
 * item is written before sem_post and read after the matching sem_wait, so
 * clean. */
#include <pthread.h>
#include <semaphore.h>

enum { kCapacity = 4, kItems = 300 };

int ring[kCapacity];
static sem_t free_slots, filled_slots;

static void *producer(void *arg) {
  (void)arg;
  for (int i = 0; i < kItems; i++) {
    sem_wait(&free_slots);
    ring[i % kCapacity] = i;
    sem_post(&filled_slots);
  }
  return 0;
}

int main(void) {
  sem_init(&free_slots, 0, kCapacity);
  sem_init(&filled_slots, 0, 0);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  long sum = 0;
  for (int i = 0; i < kItems; i++) {
    if (i % 2)
      while (sem_trywait(&filled_slots) != 0) {
      }
    else
      sem_wait(&filled_slots);
    sum += ring[i % kCapacity];
    sem_post(&free_slots);
  }
  pthread_join(t, 0);
  sem_destroy(&free_slots);
  sem_destroy(&filled_slots);
  return sum == (long)kItems * (kItems - 1) / 2 ? 0 : 1;
}
