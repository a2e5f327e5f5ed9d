/* The syscall hooks carry the system call's memory accesses: T writes buf[0];
 * afterwards in time (test barrier, no happens-before) main reads a pipe into
 * buf with a raw read system call announced by the pre/post read hooks. The
 * post hook writes the bytes read: a race with T's write. */
#include <pthread.h>
#include <sanitizer/linux_syscall_hooks.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test_barrier.h"

char buf[8];
static unsigned order;

static void *writer(void *arg) {
  (void)arg;
  buf[0] = 'w';
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  int p[2];
  if (pipe(p) != 0 || write(p[1], "ok", 2) != 2) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __tsan_testonly_barrier_wait(&order);
  __sanitizer_syscall_pre_read(p[0], buf, 2);
  const long n = syscall(SYS_read, p[0], buf, 2);
  __sanitizer_syscall_post_read(n, p[0], buf, 2);
  pthread_join(t, 0);
  return n == 2 && buf[0] == 'o' ? 0 : 1;
}
