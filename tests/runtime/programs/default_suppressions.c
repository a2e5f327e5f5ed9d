/* A racy counter whose race the program suppresses itself, through
 * ThreadSanitizer's hook for built-in suppressions: the run reports nothing
 * and exits 0, and the summary counts the suppressed report
 * (report_test.cpp). */
#include <pthread.h>
#include <stdio.h>

static long counter;

__attribute__((noinline)) static void racy_bump(void) { counter++; }

static void* worker(void* arg) {
  racy_bump();
  return arg;
}

const char* __tsan_default_suppressions(void) { return "# built in\nrace:racy_bump\n"; }

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  racy_bump();
  pthread_join(t, 0);
  printf("counter %ld\n", counter);
  return 0;
}
