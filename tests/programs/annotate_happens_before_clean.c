/* A handoff through a relaxed atomic flag (which by itself would be a race,
 * see atomic_relaxed_publication_race) made clean by the dynamic annotations:
 * AnnotateHappensBefore on the flag before the store, AnnotateHappensAfter
 * on it after the load. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "annotations.h"

int payload;
atomic_int flag;

static void *producer(void *arg) {
  (void)arg;
  payload = 17;
  AnnotateHappensBefore(__FILE__, __LINE__, &flag);
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!atomic_load_explicit(&flag, memory_order_relaxed)) sched_yield();
  AnnotateHappensAfter(__FILE__, __LINE__, &flag);
  int seen = payload;
  pthread_join(t, 0);
  return seen == 17 ? 0 : 1;
}
