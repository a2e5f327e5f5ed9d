/* 1250 threads over the run, created and joined in 25 waves of 50: each
 * writes its own slot, and main sums the wave's slots after joining it (and
 * reuses the slots for the next wave). Clean; checks that thread ids and
 * clocks survive many short-lived threads. */
#include <pthread.h>

enum { kWaves = 25, kPerWave = 50 };

long slots[kPerWave];

static void *worker(void *arg) {
  long id = (long)arg;
  slots[id % kPerWave] = id;
  return 0;
}

int main(void) {
  pthread_attr_t small_stack;
  pthread_attr_init(&small_stack);
  pthread_attr_setstacksize(&small_stack, 128 * 1024);
  long total = 0;
  for (long wave = 0; wave < kWaves; wave++) {
    pthread_t t[kPerWave];
    for (long i = 0; i < kPerWave; i++)
      if (pthread_create(&t[i], &small_stack, worker, (void *)(wave * kPerWave + i)) != 0) return 2;
    for (int i = 0; i < kPerWave; i++) pthread_join(t[i], 0);
    for (int i = 0; i < kPerWave; i++) total += slots[i];
  }
  pthread_attr_destroy(&small_stack);
  const long n = (long)kWaves * kPerWave;
  return total == n * (n - 1) / 2 ? 0 : 1;
}
