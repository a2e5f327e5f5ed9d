/* fork() while another thread is running: the helper thread updates shared
 * data under a mutex; main holds the mutex across fork() so the child gets
 * it in a consistent state. The child (single-threaded) reads the data under
 * the mutex and exits 0; the parent checks the child's status, stops the
 * helper and joins it. Nothing raced anywhere: exit status 0, no report. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

long progress;
int stop;
static pthread_mutex_t progress_mutex = PTHREAD_MUTEX_INITIALIZER;

static void *helper(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&progress_mutex);
    int done = stop;
    if (!done) progress++;
    pthread_mutex_unlock(&progress_mutex);
    if (done) return 0;
    usleep(100);
  }
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, helper, 0);
  usleep(2000);
  pthread_mutex_lock(&progress_mutex);
  pid_t child = fork();
  pthread_mutex_unlock(&progress_mutex);
  if (child == 0) {
    pthread_mutex_lock(&progress_mutex);
    long seen = progress;
    pthread_mutex_unlock(&progress_mutex);
    exit(seen >= 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  pthread_mutex_lock(&progress_mutex);
  stop = 1;
  pthread_mutex_unlock(&progress_mutex);
  pthread_join(t, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
