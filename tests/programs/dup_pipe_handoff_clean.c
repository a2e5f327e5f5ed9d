/* dup() shares the descriptor's sync object: T writes `data`, then writes a
 * byte through a dup() of the pipe's write end; main reads it from the read
 * end and reads `data`: clean. */
#include <pthread.h>
#include <unistd.h>

int data;
int fds[2];
int copy;

static void *producer(void *arg) {
  (void)arg;
  data = 9;
  char c = 1;
  return write(copy, &c, 1) == 1 ? 0 : (void *)1;
}

int main(void) {
  if (pipe(fds) != 0) return 2;
  copy = dup(fds[1]);
  if (copy < 0) return 2;
  close(fds[1]);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  char c = 0;
  if (read(fds[0], &c, 1) != 1) return 2;
  const int value = data;
  pthread_join(t, 0);
  return value == 9 ? 0 : 1;
}
