/* A long-lived thread writes a global at the start and stays alive
 * (unjoined) while 1050 short-lived threads come and go in waves; the very
 * last one writes the same global. The two writes are unordered however many
 * threads came between them: a race (a detector that recycles thread slots
 * must not forget the old access). */
#include <pthread.h>

#include "test_barrier.h"

enum { kWaves = 21, kPerWave = 50 };

long shared_total;
long scratch[kPerWave];
static unsigned order;

static void *long_lived(void *arg) {
  (void)arg;
  shared_total = 1;
  __tsan_testonly_barrier_wait(&order); /* main starts the waves */
  __tsan_testonly_barrier_wait(&order); /* main is done */
  return 0;
}

static void *short_lived(void *arg) {
  long id = (long)arg;
  scratch[id % kPerWave] = id;
  if (id == (long)kWaves * kPerWave - 1) shared_total = 2;
  return 0;
}

int main(void) {
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t keeper;
  pthread_create(&keeper, 0, long_lived, 0);
  __tsan_testonly_barrier_wait(&order);
  pthread_attr_t small_stack;
  pthread_attr_init(&small_stack);
  pthread_attr_setstacksize(&small_stack, 128 * 1024);
  for (long wave = 0; wave < kWaves; wave++) {
    pthread_t t[kPerWave];
    for (long i = 0; i < kPerWave; i++)
      if (pthread_create(&t[i], &small_stack, short_lived, (void *)(wave * kPerWave + i)) != 0) return 2;
    for (int i = 0; i < kPerWave; i++) pthread_join(t[i], 0);
  }
  pthread_attr_destroy(&small_stack);
  __tsan_testonly_barrier_wait(&order);
  pthread_join(keeper, 0);
  return shared_total == 2 ? 0 : 1;
}
