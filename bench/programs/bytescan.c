/* Benchmark kernel: a byte-wise scan of a large buffer. main fills the
 * buffer, then each thread scans its own part one byte at a time into a
 * histogram of its own (on its stack) and, every 1024 bytes, adds its
 * progress to a shared counter under a mutex. Stresses byte-granular
 * shadow memory (every byte is a location) with a lock every 1 K items.
 * Usage: bytescan [MEGABYTES=16] [THREADS=2]; prints a checksum. MEGABYTES may
 * be a fraction (0.0625: 64 KiB), for traces short enough to simulate. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char *buffer;
static size_t buffer_size;
static int threads;
static long scanned;  // bytes scanned so far, under progress_mutex
static pthread_mutex_t progress_mutex = PTHREAD_MUTEX_INITIALIZER;

static void *scan(void *arg) {
  const long t = (long)arg;
  const size_t begin = buffer_size * (size_t)t / (size_t)threads;
  const size_t end = buffer_size * (size_t)(t + 1) / (size_t)threads;
  long histogram[256] = {0};
  for (size_t i = begin; i < end; i++) {
    histogram[buffer[i]]++;
    if ((i - begin) % 1024 == 1023) {
      pthread_mutex_lock(&progress_mutex);
      scanned += 1024;
      pthread_mutex_unlock(&progress_mutex);
    }
  }
  uint64_t weighted = 0;
  for (int b = 0; b < 256; b++) weighted += (uint64_t)histogram[b] * (uint64_t)b;
  return (void *)(uintptr_t)weighted;
}

int main(int argc, char **argv) {
  const double megabytes = argc > 1 ? atof(argv[1]) : 16;
  threads = argc > 2 ? atoi(argv[2]) : 2;
  if (!(megabytes * 1048576.0 >= 1.0) || megabytes > 1e6 || threads <= 0 || threads > 256) {
    fprintf(stderr, "usage: bytescan [MEGABYTES>0, may be a fraction] [THREADS 1..256]\n");
    return 2;
  }
  buffer_size = (size_t)(megabytes * 1048576.0);
  buffer = malloc(buffer_size);
  if (!buffer) return 2;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < buffer_size; i += 8) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    for (size_t j = 0; j < 8 && i + j < buffer_size; j++) buffer[i + j] = (unsigned char)(state >> (8 * j));
  }
  pthread_t tid[256];
  for (long t = 0; t < threads; t++) pthread_create(&tid[t], 0, scan, (void *)t);
  uint64_t checksum = 0;
  for (int t = 0; t < threads; t++) {
    void *weighted;
    pthread_join(tid[t], &weighted);
    checksum += (uint64_t)(uintptr_t)weighted;
  }
  printf("bytescan bytes=%zu scanned=%ld checksum=%llu\n", buffer_size, scanned, (unsigned long long)checksum);
  free(buffer);
  return 0;
}
