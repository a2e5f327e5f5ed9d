/* The classic mistake: publishing data through a volatile flag. volatile
 * keeps the compiler from caching the flag but orders nothing between
 * threads, so the data read races with the data write (and the flag accesses
 * race too). */
#include <pthread.h>
#include <sched.h>

int data;
volatile int ready;

static void *producer(void *arg) {
  (void)arg;
  data = 11;
  ready = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!ready) sched_yield();
  int seen = data;
  pthread_join(t, 0);
  return seen == 11 ? 0 : 1;
}
