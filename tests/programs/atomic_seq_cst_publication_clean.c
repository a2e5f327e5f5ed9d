/* C11 <stdatomic.h>: seq_cst stores and loads (the default order) publish
 * data like release/acquire: clean. Also a seq_cst exchange handing the data
 * back. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

long box[2];
atomic_int turn; /* 0: main fills, 1: worker's turn, 2: main's turn again */

static void *worker(void *arg) {
  (void)arg;
  while (atomic_load(&turn) != 1) sched_yield();
  box[1] = box[0] * 2;
  atomic_exchange(&turn, 2);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  box[0] = 21;
  atomic_store(&turn, 1);
  while (atomic_load(&turn) != 2) sched_yield();
  long seen = box[1];
  pthread_join(t, 0);
  return seen == 42 ? 0 : 1;
}
