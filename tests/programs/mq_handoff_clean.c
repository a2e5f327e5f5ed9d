/* A POSIX message queue as a handoff: main writes `data`, then sends a
 * message; the thread receives it, then reads `data`. Clean: the receive is
 * ordered after the send, as a pipe's read after its write. (Stock TSan
 * does not model message queues and reports a race.) */
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static mqd_t queue;
long data;

static void* receiver(void* arg) {
  (void)arg;
  char message[16];
  if (mq_receive(queue, message, sizeof message, 0) != 1 || message[0] != 'x') return (void*)1;
  return (void*)(data == 42 ? 0L : 1L);
}

int main(void) {
  char name[64];
  snprintf(name, sizeof name, "/raceaccel-mq-%d", (int)getpid());
  struct mq_attr attr = {.mq_maxmsg = 4, .mq_msgsize = 16};
  queue = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &attr);
  if (queue == (mqd_t)-1) return 2;
  mq_unlink(name);
  pthread_t t;
  pthread_create(&t, 0, receiver, 0);
  data = 42;
  mq_send(queue, "x", 1, 0);
  void* failed = 0;
  pthread_join(t, &failed);
  mq_close(queue);
  return failed == 0 ? 0 : 1;
}
