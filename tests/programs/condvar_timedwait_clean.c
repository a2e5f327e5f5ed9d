/* pthread_cond_timedwait in a predicate loop (short timeouts, so it usually
 * times out a few times before the data arrives): clean either way, because
 * the data is read under the re-acquired mutex. */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

long answer;
int answered;
static pthread_mutex_t answer_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t answer_cond = PTHREAD_COND_INITIALIZER;

static void *slow_answerer(void *arg) {
  (void)arg;
  usleep(30 * 1000);
  pthread_mutex_lock(&answer_mutex);
  answer = 42;
  answered = 1;
  pthread_cond_signal(&answer_cond);
  pthread_mutex_unlock(&answer_mutex);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, slow_answerer, 0);
  int timeouts = 0;
  pthread_mutex_lock(&answer_mutex);
  while (!answered) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_nsec += 5 * 1000 * 1000;
    if (deadline.tv_nsec >= 1000000000) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000;
    }
    if (pthread_cond_timedwait(&answer_cond, &answer_mutex, &deadline) == ETIMEDOUT) timeouts++;
  }
  long seen = answer;
  pthread_mutex_unlock(&answer_mutex);
  pthread_join(t, 0);
  return seen == 42 && timeouts >= 0 ? 0 : 1;
}
