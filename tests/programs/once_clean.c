/* Every thread calls pthread_once and then reads what the init routine
 * wrote: pthread_once orders the (single) initialization before each return,
 * so clean. */
#include <pthread.h>

enum { kThreads = 6 };

int lookup[8];
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static void build_lookup(void) {
  for (int i = 0; i < 8; i++) lookup[i] = 1 << i;
}

static void *user(void *arg) {
  (void)arg;
  pthread_once(&lookup_once, build_lookup);
  long sum = 0;
  for (int i = 0; i < 8; i++) sum += lookup[i];
  return (void *)sum;
}

int main(void) {
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], 0, user, 0);
  int bad = 0;
  for (int i = 0; i < kThreads; i++) {
    void *sum;
    pthread_join(t[i], &sum);
    bad += (long)sum != 255;
  }
  return bad;
}
