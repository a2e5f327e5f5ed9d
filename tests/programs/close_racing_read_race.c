/* close() is a write of the descriptor, every use of it a read: T read()s
 * from a pipe; afterwards in time (test barrier, no happens-before) main
 * closes the read end. A race on the file descriptor. */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

int fds[2];
char got;
static unsigned order;

static void *reader(void *arg) {
  (void)arg;
  char c = 0;
  if (read(fds[0], &c, 1) == 1) got = c;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  if (pipe(fds) != 0 || write(fds[1], "z", 1) != 1) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  __tsan_testonly_barrier_wait(&order);
  close(fds[0]);
  pthread_join(t, 0);
  return got == 'z' ? 0 : 1;
}
