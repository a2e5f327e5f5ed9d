/* A clean multithreaded program that exits with status 3: the runtime must
 * print nothing and keep the status (only a race turns a 0 into 66). */
#include <pthread.h>

long total;
static pthread_mutex_t total_mutex = PTHREAD_MUTEX_INITIALIZER;

static void *adder(void *arg) {
  pthread_mutex_lock(&total_mutex);
  total += (long)arg;
  pthread_mutex_unlock(&total_mutex);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, adder, (void *)(i + 1));
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return total == 3 ? 3 : 1;
}
