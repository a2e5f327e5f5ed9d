/* Benchmark kernel: a thread per task. The main thread cuts an input array
 * into TASKS chunks and runs each chunk's sum in a thread of its own,
 * WIDTH threads at a time (created, then joined), as programs without a
 * thread pool do; each thread reads its chunk and writes its result slot.
 * Dominated by thread creation and joining (the clocks of many short-lived
 * threads; docs/detectors.md, "Slots of joined threads").
 * Usage: thread_per_task [TASKS=20000] [WIDTH=4]; prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kChunk = 64 };

static int *input;
static long *results;

static void *sum_chunk(void *arg) {
  const long task = (long)arg;
  long sum = 0;
  for (int i = 0; i < kChunk; i++) sum += input[task * kChunk + i];
  results[task] = sum;
  return 0;
}

int main(int argc, char **argv) {
  const long tasks = argc > 1 ? atol(argv[1]) : 20000;
  const long width = argc > 2 ? atol(argv[2]) : 4;
  if (tasks < 1 || width < 1 || width > 64) {
    fprintf(stderr, "usage: thread_per_task [TASKS>=1] [WIDTH 1..64]\n");
    return 2;
  }
  input = malloc(sizeof(int) * (size_t)(tasks * kChunk));
  results = calloc((size_t)tasks, sizeof(long));
  if (input == NULL || results == NULL) return 1;
  for (long i = 0; i < tasks * kChunk; i++) input[i] = (int)(i % 1000);
  for (long first = 0; first < tasks; first += width) {
    pthread_t threads[64];
    const long n = first + width <= tasks ? width : tasks - first;
    for (long k = 0; k < n; k++) pthread_create(&threads[k], 0, sum_chunk, (void *)(first + k));
    for (long k = 0; k < n; k++) pthread_join(threads[k], 0);
  }
  long total = 0;
  for (long t = 0; t < tasks; t++) total += results[t];
  printf("%ld\n", total);
  free(results);
  free(input);
  return 0;
}
