/* main prepares data, then creates the thread that uses it: pthread_create
 * orders everything main did before it ahead of the new thread. Main does not
 * touch the data again until after the join: clean. */
#include <pthread.h>
#include <stdlib.h>

struct Job {
  int input[32];
  long output;
};

static void *consumer(void *arg) {
  struct Job *job = arg;
  long sum = 0;
  for (int i = 0; i < 32; i++) sum += job->input[i];
  job->output = sum;
  return 0;
}

int main(void) {
  struct Job *job = malloc(sizeof *job);
  for (int i = 0; i < 32; i++) job->input[i] = i;
  pthread_t t;
  pthread_create(&t, 0, consumer, job);
  pthread_join(t, 0);
  int ok = job->output == 496;
  free(job);
  return ok ? 0 : 1;
}
