/* A thread sets up an object, registers an eventfd with epoll_ctl carrying
 * the object's address, and signals the eventfd; another thread's
 * epoll_wait returns the event and it uses the object without reading the
 * eventfd. Adding the watch releases the epoll descriptor and the wait that
 * returns it acquires it (stock TSan's model): clean (TSan agrees). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct Job {
  long input;
  long output;
};

static int epfd, evfd;

static void* producer(void* arg) {
  (void)arg;
  struct Job* job = malloc(sizeof *job);
  job->input = 41;
  job->output = 0;
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = job};
  epoll_ctl(epfd, EPOLL_CTL_ADD, evfd, &ev);
  const uint64_t one = 1;
  if (write(evfd, &one, sizeof one) != sizeof one) abort();
  return 0;
}

int main(void) {
  epfd = epoll_create1(0);
  evfd = eventfd(0, 0);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  struct epoll_event ev;
  while (epoll_wait(epfd, &ev, 1, -1) != 1) {
  }
  struct Job* job = ev.data.ptr;
  job->output = job->input + 1;
  const long result = job->output;
  pthread_join(t, 0);
  free(job);
  close(evfd);
  close(epfd);
  return result == 42 ? 0 : 1;
}
