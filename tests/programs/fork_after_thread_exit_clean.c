/* fork() while some threads have already exited (not joined yet) and one
 * still runs with an access it has not had checked: everything every
 * thread did happened before the fork, so the child (whose only thread is
 * the forking one) reads and writes that data without a race. Clean.
 * Stock TSan agrees here (it reports such a race when the other threads
 * still take locks around the data at the fork). Before the fix the child
 * was ordered after the live threads only: a false race with the exited
 * ones, on every run. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kExited = 3 };

long shared[kExited];  // not static: the compiler must keep every store
long late_value;
static atomic_int os_tid[kExited];
static atomic_int started, go;

static void* exits_early(void* arg) {
  const long t = (long)arg;
  shared[t] = t + 1;
  atomic_store_explicit(&os_tid[t], (int)syscall(SYS_gettid), memory_order_relaxed);
  return 0;
}

// Its write is still in its buffer at the fork, the first it ever
// buffered: after it, it only repeats its load of `go`, which needs no
// check, and calls nothing that would check what it buffered.
static void* keeps_running(void* arg) {
  (void)arg;
  atomic_store_explicit(&started, 1, memory_order_relaxed);
  int seen = atomic_load_explicit(&go, memory_order_relaxed);
  late_value = 7;
  for (volatile unsigned spin = 1; !seen; spin++) {
    if (spin % 4096 == 0) seen = atomic_load_explicit(&go, memory_order_relaxed);
  }
  return 0;
}

static int gone(int tid) { return syscall(SYS_tgkill, getpid(), tid, 0) != 0 && errno == ESRCH; }

int main(void) {
  pthread_t early[kExited], running;
  for (long t = 0; t < kExited; t++) pthread_create(&early[t], 0, exits_early, (void*)t);
  pthread_create(&running, 0, keeps_running, 0);
  // Until the early threads have exited (their state torn down), without
  // synchronizing with them.
  for (long t = 0; t < kExited; t++) {
    while (atomic_load_explicit(&os_tid[t], memory_order_relaxed) == 0) usleep(100);
    while (!gone(atomic_load_explicit(&os_tid[t], memory_order_relaxed))) usleep(100);
  }
  while (!atomic_load_explicit(&started, memory_order_relaxed)) usleep(100);
  usleep(10000);  // it has written late_value by now, unless descheduled
  const pid_t pid = fork();
  if (pid == 0) {
    long sum = late_value;
    for (int t = 0; t < kExited; t++) {
      sum += shared[t];
      shared[t] = -1;
    }
    late_value = -1;
    // late_value is 0 if the running thread was descheduled before writing
    // it (then the fork finds nothing in its buffer: still clean).
    _exit(sum == 7 + 1 + 2 + 3 || sum == 1 + 2 + 3 ? 0 : 3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  atomic_store_explicit(&go, 1, memory_order_relaxed);
  for (int t = 0; t < kExited; t++) pthread_join(early[t], 0);
  pthread_join(running, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
