/* eventfd_write / eventfd_read as a handoff: the reader is ordered after
 * the writer's earlier write of `data`. glibc makes both system calls
 * inline (they reach neither read() nor write()), so they need interceptors
 * of their own: without them every run reported a race. Clean (stock TSan
 * agrees). */
#include <pthread.h>
#include <sys/eventfd.h>

static int efd;
long data;

static void* reader(void* arg) {
  (void)arg;
  eventfd_t value = 0;
  if (eventfd_read(efd, &value) != 0 || value != 1) return (void*)1;
  return (void*)(data == 42 ? 0L : 1L);
}

int main(void) {
  efd = eventfd(0, 0);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  data = 42;
  eventfd_write(efd, 1);
  void* failed = 0;
  pthread_join(t, &failed);
  return failed == 0 ? 0 : 1;
}
