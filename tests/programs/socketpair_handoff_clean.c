/* The two ends of a socketpair share one sync object: T writes `data`, then
 * send()s a byte on one end; main recv()s it on the other end and reads
 * `data`: clean. */
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

int data;
int ends[2];

static void *producer(void *arg) {
  (void)arg;
  data = 7;
  char c = 1;
  return send(ends[0], &c, 1, 0) == 1 ? 0 : (void *)1;
}

int main(void) {
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0) return 2;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  char c = 0;
  if (recv(ends[1], &c, 1, 0) != 1) return 2;
  const int value = data;
  pthread_join(t, 0);
  close(ends[0]);
  close(ends[1]);
  return value == 7 ? 0 : 1;
}
