/* The smallest race: no barrier at all. Whichever write comes first in time,
 * the two are unordered by happens-before, so the verdict never changes. */
#include <pthread.h>

int value;

static void *thread_main(void *arg) {
  (void)arg;
  value = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thread_main, 0);
  value = 2;
  pthread_join(t, 0);
  return 0;
}
