// Creates and joins argv[1] (default 20000) short-lived threads, a few at a
// time, each writing its own slot and a shared counter under a lock. Clean.
// The runtime's and the detector's memory must not grow with the threads
// that ended. With argv[2] = "detached" the threads are detached instead and
// each posts a semaphore that main waits for (a finished thread that nothing
// joins must not keep a clock with an entry per thread it knew of).
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static int slots[8];

static sem_t ended;
static int detached;

static void* worker(void* arg) {
  int* slot = arg;
  *slot += 1;
  pthread_mutex_lock(&lock);
  ++counter;
  pthread_mutex_unlock(&lock);
  if (detached) sem_post(&ended);
  return NULL;
}

int main(int argc, char** argv) {
  const long total = argc > 1 ? atol(argv[1]) : 20000;
  detached = argc > 2 && strcmp(argv[2], "detached") == 0;
  sem_init(&ended, 0, 0);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (detached) pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (long done = 0; done < total; done += 8) {
    pthread_t t[8];
    for (int i = 0; i < 8; ++i) pthread_create(&t[i], &attr, worker, &slots[i]);
    for (int i = 0; i < 8; ++i) {
      if (detached) {
        sem_wait(&ended);
      } else {
        pthread_join(t[i], NULL);
      }
    }
  }
  printf("%ld\n", counter);
  return 0;
}
