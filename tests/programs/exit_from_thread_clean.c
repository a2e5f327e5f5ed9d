/* A worker thread ends the whole process with exit(0) while main is blocked
 * in pthread_join on another thread that never finishes. Nothing raced: exit
 * status 0 and no report. */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

long result;
static pthread_mutex_t result_mutex = PTHREAD_MUTEX_INITIALIZER;
static sem_t never_posted;

static void *blocker(void *arg) {
  (void)arg;
  sem_wait(&never_posted);
  return 0;
}

static void *finisher(void *arg) {
  (void)arg;
  pthread_mutex_lock(&result_mutex);
  result = 7;
  pthread_mutex_unlock(&result_mutex);
  exit(0);
}

int main(void) {
  sem_init(&never_posted, 0, 0);
  pthread_t b, f;
  pthread_create(&b, 0, blocker, 0);
  pthread_mutex_lock(&result_mutex);
  result = 1;
  pthread_mutex_unlock(&result_mutex);
  pthread_create(&f, 0, finisher, 0);
  pthread_join(b, 0); /* never returns: the finisher exits the process */
  return 3;
}
