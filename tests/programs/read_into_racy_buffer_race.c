/* read() writes the bytes it returns into the program's buffer. Thread T
 * writes buf[1]; afterwards in time (test barrier, no happens-before) main
 * read()s 4 bytes from a pipe into buf: a race between T's write and the
 * write read() makes for main. */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

char buf[8];
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  buf[1] = 'x';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  int p[2];
  if (pipe(p) != 0 || write(p[1], "data", 4) != 4) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  const ssize_t n = read(p[0], buf, 4);
  pthread_join(t, 0);
  return n == 4 && buf[1] == 'a' ? 0 : 1;
}
