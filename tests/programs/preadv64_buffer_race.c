/* Built with -D_FILE_OFFSET_BITS=64 (common in real builds), which makes
 * preadv call preadv64: a thread reads a file into `buffer` while main
 * reads `buffer` with no synchronization. A race on the buffer, which went
 * unreported while preadv64 (and preadv2, pwritev64, pwritev2) had no
 * interceptor (stock TSan reports it). */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "test_barrier.h"

static unsigned order;
static int fd;
char buffer[64];

static void* reader(void* arg) {
  (void)arg;
  struct iovec part = {buffer, sizeof buffer};
  if (preadv(fd, &part, 1, 0) != (ssize_t)sizeof buffer) abort();
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  char name[] = "/tmp/raceaccel-preadv64-XXXXXX";
  fd = mkstemp(name);
  unlink(name);
  char bytes[sizeof buffer] = {1};
  if (write(fd, bytes, sizeof bytes) != (ssize_t)sizeof bytes) return 2;
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  __tsan_testonly_barrier_wait(&order);
  const int first = buffer[0];
  pthread_join(t, 0);
  close(fd);
  return first == 1 ? 0 : 1;
}
