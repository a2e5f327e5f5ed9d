/* A thread writes `data`, writes to a pipe and closes both of its ends;
 * later another thread makes a new pipe, which gets the same descriptor
 * numbers, reads from it (nothing: a zero-length read) and reads `data`.
 * Nothing orders the two threads: a race on `data` (stock TSan reports
 * it). The runtime used to hand the new pipe the old pipe's sync object
 * with its clock, which ordered the reader after the writer and hid the
 * race. */
#include <pthread.h>
#include <unistd.h>

#include "test_barrier.h"

static unsigned order;
static int old_pipe[2];
long data;

static void* writer(void* arg) {
  (void)arg;
  data = 42;
  if (write(old_pipe[1], "x", 1) != 1) return (void*)1;
  close(old_pipe[0]);
  close(old_pipe[1]);
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

static void* reader(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  int new_pipe[2];
  if (pipe(new_pipe) != 0) return (void*)1;
  char byte;
  if (read(new_pipe[0], &byte, 0) != 0) return (void*)1;
  const long seen = data;
  close(new_pipe[0]);
  close(new_pipe[1]);
  return (void*)(seen == 42 ? 0L : 1L);
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  if (pipe(old_pipe) != 0) return 2;
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
