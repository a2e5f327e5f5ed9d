/* Threads update a counter under the WRITE side of an annotated custom
 * reader-writer lock (custom_mutex.h) and read it under the read side:
 * the lock orders them. Clean. */
#include <pthread.h>

#include "custom_mutex.h"

static custom_rwlock lock;
long counter;

static void* worker(void* arg) {
  (void)arg;
  for (int i = 0; i < 1000; ++i) {
    custom_write_lock(&lock);
    ++counter;
    custom_write_unlock(&lock);
    custom_read_lock(&lock);
    long seen = counter;
    custom_read_unlock(&lock);
    (void)seen;
  }
  return NULL;
}

int main(void) {
  custom_rwlock_init(&lock);
  pthread_t t[3];
  for (int i = 0; i < 3; ++i) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; ++i) pthread_join(t[i], NULL);
  return counter == 3000 ? 0 : 1;
}
