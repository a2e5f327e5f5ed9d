/* vfork() while checking: a child that only _exits must leave the parent's
 * checking as it was. Two races, one found before the vfork and one after:
 * both reported by the parent, which exits 66; the child exits with its own
 * status. Before the fix the vfork child's _exit finalized the runtime in
 * the parent's memory: the parent exited 0 and never reported the second
 * race. (No thread runs during the vfork, so that stock TSan, which turns
 * vfork into fork, reports no thread leak in the child.) */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

long before_vfork, after_vfork;  // not static: the compiler must keep every store

static void* write_before(void* arg) {
  before_vfork = 1;
  return arg;
}

static void* write_after(void* arg) {
  after_vfork = 1;
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, write_before, 0);
  before_vfork = 2;  // races with write_before
  pthread_join(t, 0);

  const pid_t child = vfork();
  if (child == 0) _exit(3);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 3) {
    fprintf(stderr, "vfork child: status %d, expected exit 3\n", status);
    return 1;
  }

  pthread_create(&t, 0, write_after, 0);
  after_vfork = 2;  // races with write_after
  pthread_join(t, 0);
  return 0;
}
