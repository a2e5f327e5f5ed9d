/* Four threads read a global (concurrent reads are fine), then main writes it
 * without joining them: the write races with every one of those reads (a
 * detector must keep all the readers, not only the last one). */
#include <pthread.h>

#include "test_barrier.h"

enum { kReaders = 4 };

long threshold = 10;
static unsigned order;

static void *reader(void *arg) {
  (void)arg;
  long seen = threshold;
  __tsan_testonly_barrier_wait(&order);
  return (void *)seen;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, kReaders + 1);
  pthread_t t[kReaders];
  for (int i = 0; i < kReaders; i++) pthread_create(&t[i], 0, reader, 0);
  __tsan_testonly_barrier_wait(&order); /* all four have read */
  threshold = 20;
  int bad = 0;
  for (int i = 0; i < kReaders; i++) {
    void *seen;
    pthread_join(t[i], &seen);
    bad += (long)seen != 10;
  }
  return bad;
}
