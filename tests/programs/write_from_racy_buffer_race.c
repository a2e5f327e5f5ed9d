/* write() reads the program's buffer. Thread T writes buf[2]; afterwards in
 * time (test barrier, no happens-before) main write()s buf to a pipe: a race
 * between T's write and the read write() makes for main. */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

char buf[8] = "abcdefg";
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  buf[2] = 'X';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  int p[2];
  if (pipe(p) != 0) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  const ssize_t n = write(p[1], buf, 4);
  pthread_join(t, 0);
  char back[4];
  return n == 4 && read(p[0], back, 4) == 4 && back[2] == 'X' ? 0 : 1;
}
