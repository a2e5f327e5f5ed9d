/* dup2() closes its target and makes it a copy: descriptor 50 first holds
 * one end of an unrelated pipe, then dup2 makes it a copy of the write end of
 * `fds`. T writes `data`, then a byte through 50; main reads it from the read
 * end of `fds` and reads `data`: clean. */
#include <pthread.h>
#include <unistd.h>

int data;
int fds[2];
int other[2];

static void *producer(void *arg) {
  (void)arg;
  data = 17;
  char c = 1;
  return write(50, &c, 1) == 1 ? 0 : (void *)1;
}

int main(void) {
  if (pipe(fds) != 0 || pipe(other) != 0) return 2;
  if (dup2(other[1], 50) != 50 || dup2(fds[1], 50) != 50) return 2;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  char c = 0;
  if (read(fds[0], &c, 1) != 1) return 2;
  const int value = data;
  pthread_join(t, 0);
  return value == 17 ? 0 : 1;
}
