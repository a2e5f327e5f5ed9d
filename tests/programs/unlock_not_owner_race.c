/* An unlock that fails leaves nothing to acquire. Thread B writes data and
 * then "unlocks" a mutex it does not hold; glibc checks the owner of
 * error-checking and recursive mutexes and returns EPERM without
 * unlocking, and a condition wait on such a mutex fails the same way
 * before it waits. The main thread, once B's call failed (it learns that
 * through a relaxed atomic, which orders nothing), locks the mutex and reads
 * data: nothing orders B's write before it. A race. Before the fix the failed unlock (or
 * wait) still released the mutex in the runtime, hiding the race.
 * ARGS: errorcheck | recursive | condwait (condition wait, error-checking). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t m;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int use_condwait;
static atomic_int done;  // 1: B's unlock failed with EPERM, 2: it did not (relaxed: orders nothing)
int data;                // not static: the compiler must keep every store

static void* fail_to_unlock(void* arg) {
  data = 42;
  int r;
  if (use_condwait) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    r = pthread_cond_timedwait(&cv, &m, &until);
  } else {
    r = pthread_mutex_unlock(&m);
  }
  atomic_store_explicit(&done, r == EPERM ? 1 : 2, memory_order_relaxed);
  return arg;
}

int main(int argc, char** argv) {
  const char* kind = argc > 1 ? argv[1] : "errorcheck";
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, strcmp(kind, "recursive") == 0 ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &attr);
  use_condwait = strcmp(kind, "condwait") == 0;

  pthread_t b;
  pthread_create(&b, 0, fail_to_unlock, 0);
  while (atomic_load_explicit(&done, memory_order_relaxed) == 0) {
  }
  pthread_mutex_lock(&m);  // after B's failed unlock: acquires nothing of B's
  const int seen = data;   // races with B's write
  pthread_mutex_unlock(&m);
  pthread_join(b, 0);
  if (atomic_load_explicit(&done, memory_order_relaxed) != 1) {
    fprintf(stderr, "%s: the unowned unlock did not fail with EPERM\n", kind);
    return 1;
  }
  return seen == 42 ? 0 : 1;
}
