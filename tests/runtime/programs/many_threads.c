// Creates and joins argv[1] (default 20000) short-lived threads, a few at a
// time, each writing its own slot and a shared counter under a lock. Clean.
// The runtime's and the detector's memory must not grow with the threads
// that ended.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static int slots[8];

static void* worker(void* arg) {
  int* slot = arg;
  *slot += 1;
  pthread_mutex_lock(&lock);
  ++counter;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(int argc, char** argv) {
  const long total = argc > 1 ? atol(argv[1]) : 20000;
  for (long done = 0; done < total; done += 8) {
    pthread_t t[8];
    for (int i = 0; i < 8; ++i) pthread_create(&t[i], NULL, worker, &slots[i]);
    for (int i = 0; i < 8; ++i) pthread_join(t[i], NULL);
  }
  printf("%ld\n", counter);
  return 0;
}
