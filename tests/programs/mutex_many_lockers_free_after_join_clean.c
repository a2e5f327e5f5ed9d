// Four threads take one heap mutex many times; main frees it after joining
// them. The lock word is read by every lock and unlock, by all threads, and
// all those reads are ordered by the lock itself, so nothing races, and the
// free after the joins is ordered after every use.
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t *m;
static long counter;

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 1000; i++) {
    pthread_mutex_lock(m);
    counter++;
    pthread_mutex_unlock(m);
  }
  return 0;
}

int main(void) {
  m = malloc(sizeof *m);
  pthread_mutex_init(m, 0);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  pthread_mutex_destroy(m);
  free(m);
  return counter == 4000 ? 0 : 1;
}
