/* Happens-before is transitive across threads main never talks to: main
 * creates A, A creates B, B writes a result, A joins B, main joins A and
 * reads the result. Clean. */
#include <pthread.h>

long result;

static void *grandchild(void *arg) {
  (void)arg;
  result = 1234;
  return 0;
}

static void *child(void *arg) {
  (void)arg;
  pthread_t b;
  pthread_create(&b, 0, grandchild, 0);
  pthread_join(b, 0);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, child, 0);
  pthread_join(a, 0);
  return result == 1234 ? 0 : 1;
}
