/* A pipe carries happens-before: T writes `data`, then writes a byte to the
 * pipe; main reads the byte, then reads `data`. The write to the pipe
 * happens before the read that receives it (ThreadSanitizer's model): clean. */
#include <pthread.h>
#include <unistd.h>

int data;
int fds[2];

static void *producer(void *arg) {
  (void)arg;
  data = 42;
  char c = 1;
  return write(fds[1], &c, 1) == 1 ? 0 : (void *)1;
}

int main(void) {
  if (pipe(fds) != 0) return 2;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  char c = 0;
  if (read(fds[0], &c, 1) != 1) return 2;
  const int value = data;
  pthread_join(t, 0);
  return value == 42 ? 0 : 1;
}
