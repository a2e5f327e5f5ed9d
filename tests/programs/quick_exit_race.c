/* quick_exit() ends the process through glibc's own _exit, which no
 * interceptor sees: the race whose second access is still buffered then must
 * still be reported (and the status become 66). A detached thread writes x
 * and says so through a relaxed atomic (no happens-before); main writes x
 * and calls quick_exit(0). Before the fix: no report, exit 0. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

long x;  // not static: the compiler must keep every store
static atomic_int written;

static void* writer(void* arg) {
  x = 1;
  atomic_store_explicit(&written, 1, memory_order_relaxed);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_detach(t);
  while (!atomic_load_explicit(&written, memory_order_relaxed)) {
  }
  x = 2;  // races with writer: a relaxed flag orders nothing
  quick_exit(0);
}
