/* Worker threads are never joined: they block forever on a semaphore that is
 * never posted, and main returns 0 while they are still alive. Their
 * results reached main through a mutex, so nothing raced: clean, exit 0. */
#include <pthread.h>
#include <semaphore.h>

enum { kWorkers = 4 };

long collected;
int finished;
static pthread_mutex_t collect_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t collect_cond = PTHREAD_COND_INITIALIZER;
static sem_t never_posted;

static void *worker(void *arg) {
  pthread_mutex_lock(&collect_mutex);
  collected += (long)arg;
  finished++;
  pthread_cond_signal(&collect_cond);
  pthread_mutex_unlock(&collect_mutex);
  sem_wait(&never_posted); /* blocks until the process exits */
  return 0;
}

int main(void) {
  sem_init(&never_posted, 0, 0);
  for (long i = 1; i <= kWorkers; i++) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)i);
  }
  pthread_mutex_lock(&collect_mutex);
  while (finished < kWorkers) pthread_cond_wait(&collect_cond, &collect_mutex);
  long total = collected;
  pthread_mutex_unlock(&collect_mutex);
  return total == 10 ? 0 : 1; /* no join */
}
