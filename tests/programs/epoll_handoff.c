/* A thread sets up an object, registers an eventfd with epoll_ctl carrying
 * the object's address and writes the eventfd; the thread whose epoll_wait
 * returns the event uses the object without reading the eventfd. Stock
 * TSan's model, which the runtime follows: the registration and every write
 * to a watched descriptor release the epoll descriptor, and a wait that
 * returns events acquires it. Where the producer writes the object's input
 * is the argument (TSan agrees with each verdict):
 *   before-register  before epoll_ctl: ordered, clean;
 *   before-wakeup    after epoll_ctl, before the eventfd write: ordered by
 *                    the write to the watched eventfd, clean;
 *   after-wakeup     after the eventfd write: nothing orders it, a race on
 *                    `input`.
 * Before the epoll interceptors the two clean cases reported races. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct Job {
  long input;
  long output;
};

enum Moment { kBeforeRegister, kBeforeWakeup, kAfterWakeup };

static int epfd, evfd;
static enum Moment moment;

static void* producer(void* arg) {
  (void)arg;
  struct Job* job = malloc(sizeof *job);
  job->output = 0;
  if (moment == kBeforeRegister) job->input = 41;
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = job};
  epoll_ctl(epfd, EPOLL_CTL_ADD, evfd, &ev);
  if (moment == kBeforeWakeup) job->input = 41;
  const uint64_t one = 1;
  if (write(evfd, &one, sizeof one) != sizeof one) abort();
  if (moment == kAfterWakeup) job->input = 41;
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  if (strcmp(argv[1], "before-register") == 0) {
    moment = kBeforeRegister;
  } else if (strcmp(argv[1], "before-wakeup") == 0) {
    moment = kBeforeWakeup;
  } else if (strcmp(argv[1], "after-wakeup") == 0) {
    moment = kAfterWakeup;
  } else {
    return 2;
  }
  epfd = epoll_create1(0);
  evfd = eventfd(0, 0);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  struct epoll_event ev;
  while (epoll_wait(epfd, &ev, 1, -1) != 1) {
  }
  struct Job* job = ev.data.ptr;
  job->output = job->input + 1;  // after-wakeup: whichever comes first, they race
  const long result = job->output;
  pthread_join(t, 0);
  free(job);
  close(evfd);
  close(epfd);
  return moment == kAfterWakeup || result == 42 ? 0 : 1;
}
