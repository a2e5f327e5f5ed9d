/* Threads on the smallest stack POSIX allows (PTHREAD_STACK_MIN, 16 KiB)
 * must run under the runtime as they do natively and under stock TSan.
 * glibc takes the static TLS of every loaded object out of each stack, and
 * the runtime's own (about 36 KiB) made pthread_create fail with EINVAL:
 * the threads never ran and their race was missed. Four threads write a
 * global through a few calls (the report is built on the small stack). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>

int g;  // not static: the compiler must keep every store

__attribute__((noinline)) static void f3(int v) { g = v; }
__attribute__((noinline)) static void f2(int v) { f3(v + 1); }
__attribute__((noinline)) static void f1(int v) { f2(v + 1); }

static void* worker(void* arg) {
  for (int i = 0; i < 100; i++) f1((int)(long)arg);
  return 0;
}

int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
  pthread_t t[4];
  for (long i = 0; i < 4; i++) {
    const int r = pthread_create(&t[i], &attr, worker, (void*)i);
    if (r != 0) {
      fprintf(stderr, "pthread_create with a %ld-byte stack: error %d\n", (long)PTHREAD_STACK_MIN, r);
      return 1;
    }
  }
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  return 0;
}
