/* Benchmark kernel: a read-shared lookup table. main builds a table, then
 * the threads (created after it, so they are ordered after the build) run
 * many pseudo-random lookups with no synchronization: every location is read
 * by all threads, which stresses a detector's read-shared state.
 * Usage: lookup [LOOKUPS_PER_THREAD=75000000] [THREADS=4] [TABLE=65536]. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t *table;
static long table_size, lookups_per_thread;

static void *look_up(void *arg) {
  uint64_t state = 0x2545f4914f6cdd1dull * (uint64_t)((long)arg + 1);
  uint64_t sum = 0;
  for (long i = 0; i < lookups_per_thread; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    sum += table[(state >> 33) % (uint64_t)table_size];
  }
  return (void *)(uintptr_t)sum;
}

int main(int argc, char **argv) {
  lookups_per_thread = argc > 1 ? atol(argv[1]) : 75000000;
  const int threads = argc > 2 ? atoi(argv[2]) : 4;
  table_size = argc > 3 ? atol(argv[3]) : 65536;
  if (lookups_per_thread <= 0 || threads <= 0 || threads > 256 || table_size <= 0) {
    fprintf(stderr, "usage: lookup [LOOKUPS>0] [THREADS 1..256] [TABLE>0]\n");
    return 2;
  }
  table = malloc(sizeof(uint32_t) * (size_t)table_size);
  if (!table) return 2;
  for (long i = 0; i < table_size; i++) table[i] = (uint32_t)(i * 2654435761u);
  pthread_t tid[256];
  for (long t = 0; t < threads; t++) pthread_create(&tid[t], 0, look_up, (void *)t);
  uint64_t checksum = 0;
  for (int t = 0; t < threads; t++) {
    void *sum;
    pthread_join(tid[t], &sum);
    checksum += (uint64_t)(uintptr_t)sum;
  }
  printf("lookup threads=%d checksum=%llu\n", threads, (unsigned long long)checksum);
  free(table);
  return 0;
}
