/* main reads the shared value only if a condition holds, and it never holds
 * while the other thread writes. The instrumented compiler must not hoist
 * (speculate) the load above the condition: clean. */
#include <pthread.h>

int shared_value;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 0; i < 100; i++) shared_value = i;
  return 0;
}

static int read_if(int condition) {
  int result = 0;
  if (condition) result = shared_value;
  return result;
}

int main(int argc, char **argv) {
  (void)argv;
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int seen = 0;
  for (int i = 0; i < 100; i++) seen += read_if(argc > 100);
  pthread_join(t, 0);
  return seen == 0 && shared_value == 99 ? 0 : 1;
}
