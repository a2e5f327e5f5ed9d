/* Detached workers (never joined) each fill their own slot and sem_post one
 * "done" semaphore; main sem_waits once per worker and then reads every slot.
 * The semaphore is the only synchronization and it is enough: clean. */
#include <pthread.h>
#include <semaphore.h>

enum { kWorkers = 16 };

long results[kWorkers];
static sem_t done;

static void *worker(void *arg) {
  long me = (long)arg;
  results[me] = me * me;
  sem_post(&done);
  return 0;
}

int main(void) {
  sem_init(&done, 0, 0);
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  for (long i = 0; i < kWorkers; i++) {
    pthread_t t;
    pthread_create(&t, &detached, worker, (void *)i);
  }
  pthread_attr_destroy(&detached);
  for (int i = 0; i < kWorkers; i++) sem_wait(&done);
  long sum = 0;
  for (int i = 0; i < kWorkers; i++) sum += results[i];
  return sum == 1240 ? 0 : 1;
}
