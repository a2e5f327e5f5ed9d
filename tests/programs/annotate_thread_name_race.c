/* Threads named with AnnotateThreadName, then a plain race between them:
 * naming must not change the verdict (and the report may show the names). */
#include <pthread.h>

#include "annotations.h"
#include "test_barrier.h"

int mailbox;
static unsigned order;

static void *sender(void *arg) {
  (void)arg;
  AnnotateThreadName(__FILE__, __LINE__, "sender");
  mailbox = 1;
  __tsan_testonly_barrier_wait(&order);
  return 0;
}

int main(void) {
  AnnotateThreadName(__FILE__, __LINE__, "receiver");
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t t;
  pthread_create(&t, 0, sender, 0);
  __tsan_testonly_barrier_wait(&order);
  int seen = mailbox;
  pthread_join(t, 0);
  return seen == 1 ? 0 : 1;
}
