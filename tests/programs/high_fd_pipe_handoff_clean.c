/* A pipe whose ends are moved to descriptors 9000 and 9001 (the limit on
 * open descriptors raised, as servers do): main writes `data`, then the
 * pipe; the thread reads the pipe, then `data`. Clean (stock TSan agrees).
 * Descriptors at 8192 and above were not tracked: every run reported a
 * race. */
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

enum { kReadEnd = 9000, kWriteEnd = 9001 };

long data;

static void* reader(void* arg) {
  (void)arg;
  char byte;
  if (read(kReadEnd, &byte, 1) != 1) return (void*)1;
  return (void*)(data == 42 ? 0L : 1L);
}

int main(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 2;
  if (limit.rlim_max < kWriteEnd + 1) limit.rlim_max = kWriteEnd + 1;  // root may raise it
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return 2;
  int ends[2];
  if (pipe(ends) != 0 || dup2(ends[0], kReadEnd) != kReadEnd || dup2(ends[1], kWriteEnd) != kWriteEnd) return 2;
  close(ends[0]);
  close(ends[1]);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  data = 42;
  if (write(kWriteEnd, "x", 1) != 1) return 2;
  void* failed = 0;
  pthread_join(t, &failed);
  return failed == 0 ? 0 : 1;
}
