/* A thread returns a heap result through pthread_exit; main receives it from
 * pthread_join and reads it: the join orders the two, so clean. */
#include <pthread.h>
#include <stdlib.h>

static void finish(int *result) { pthread_exit(result); }

static void *worker(void *arg) {
  int *result = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) result[i] = (int)(long)arg + i;
  finish(result);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, (void *)10L);
  void *value;
  pthread_join(t, &value);
  int *result = value;
  int ok = result[0] == 10 && result[3] == 13;
  free(result);
  return ok ? 0 : 1;
}
