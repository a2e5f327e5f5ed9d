/* fcntl(F_DUPFD_CLOEXEC) makes a copy of a descriptor exactly like dup():
 * T writes `data`, then writes a byte through an fcntl copy of a pipe's
 * write end; main reads the byte from the read end and reads `data`: clean.
 * (ThreadSanitizer does not model fcntl's copies and reports a race.) */
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

int data;
int fds[2];
int copy;

static void *producer(void *arg) {
  (void)arg;
  data = 13;
  char c = 1;
  return write(copy, &c, 1) == 1 ? 0 : (void *)1;
}

int main(void) {
  if (pipe(fds) != 0) return 2;
  copy = fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
  if (copy < 10) return 2;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  char c = 0;
  if (read(fds[0], &c, 1) != 1) return 2;
  const int value = data;
  pthread_join(t, 0);
  return value == 13 ? 0 : 1;
}
