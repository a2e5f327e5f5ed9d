/* glibc runs exit handlers under the lock that registered them: what a
 * thread wrote before registering a handler (atexit, on_exit) happens before
 * the handler runs, in the thread that exits. A detached thread writes x,
 * registers a handler that reads x, and tells main through a relaxed flag
 * (no happens-before); main returns and exit runs the handler.
 * ARGS before: x written before the registration, clean (before the fix a
 * false race on every run). ARGS after: x written again after it, a race
 * (the registration orders only what came before it). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long x;  // not static: the compiler must keep every store
static int write_after;
static atomic_int registered;

static void read_x(void) {
  if (x == 0) fprintf(stderr, "x not written\n");
}
static void read_x_again(int status, void* arg) {
  (void)status;
  (void)arg;
  if (x == 0) fprintf(stderr, "x not written\n");
}

static void* writer(void* arg) {
  x = 1;
  atexit(read_x);
  on_exit(read_x_again, 0);
  if (write_after) x = 2;  // not ordered before the handlers
  atomic_store_explicit(&registered, 1, memory_order_relaxed);
  return arg;
}

int main(int argc, char** argv) {
  write_after = argc > 1 && strcmp(argv[1], "after") == 0;
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_detach(t);
  while (!atomic_load_explicit(&registered, memory_order_relaxed)) {
  }
  return 0;
}
