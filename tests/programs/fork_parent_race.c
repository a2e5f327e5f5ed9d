/* A threaded program forks; the child exits 0 (nothing raced in it, so its
 * status must stay 0), then the parent's two threads race. The parent
 * reports and exits 66; it exits 1 instead if the child's status was not 0. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_barrier.h"

int after_fork;
static unsigned order;

static void *sibling(void *arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order); /* main has forked */
  after_fork = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, sibling, 0);
  pid_t child = fork();
  if (child == 0) exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  after_fork = 2;
  pthread_join(t, 0);
  return 0;
}
