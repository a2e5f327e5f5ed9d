/* Benchmark kernel: a 1-D three-point stencil over two arrays of doubles,
 * the cells split among the threads, with a barrier after every sweep (the
 * threads read their neighbours' edge cells of the previous sweep).
 * Usage: stencil [CELLS=1000000] [SWEEPS=100] [THREADS=2]; prints a checksum. */
#define _POSIX_C_SOURCE 200809L  // pthread barriers under -std=c11
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static double *grid[2];
static long cells, sweeps;
static int threads;
static pthread_barrier_t sweep_done;

static void *relax(void *arg) {
  const long t = (long)arg;
  const long begin = 1 + (cells - 2) * t / threads;
  const long end = 1 + (cells - 2) * (t + 1) / threads;
  for (long s = 0; s < sweeps; s++) {
    const double *src = grid[s % 2];
    double *dst = grid[(s + 1) % 2];
    for (long i = begin; i < end; i++) dst[i] = 0.25 * src[i - 1] + 0.5 * src[i] + 0.25 * src[i + 1];
    pthread_barrier_wait(&sweep_done);
  }
  return 0;
}

int main(int argc, char **argv) {
  cells = argc > 1 ? atol(argv[1]) : 1000000;
  sweeps = argc > 2 ? atol(argv[2]) : 100;
  threads = argc > 3 ? atoi(argv[3]) : 2;
  if (cells < 3 || sweeps <= 0 || threads <= 0 || threads > 256) {
    fprintf(stderr, "usage: stencil [CELLS>=3] [SWEEPS>0] [THREADS 1..256]\n");
    return 2;
  }
  for (int g = 0; g < 2; g++) {
    grid[g] = malloc(sizeof(double) * (size_t)cells);
    if (!grid[g]) return 2;
    for (long i = 0; i < cells; i++) grid[g][i] = (double)(i % 97);
  }
  pthread_barrier_init(&sweep_done, 0, (unsigned)threads);
  pthread_t tid[256];
  for (long t = 0; t < threads; t++) pthread_create(&tid[t], 0, relax, (void *)t);
  for (int t = 0; t < threads; t++) pthread_join(tid[t], 0);
  pthread_barrier_destroy(&sweep_done);
  double checksum = 0;
  for (long i = 0; i < cells; i++) checksum += grid[sweeps % 2][i];
  printf("stencil cells=%ld sweeps=%ld checksum=%.6f\n", cells, sweeps, checksum);
  free(grid[0]);
  free(grid[1]);
  return 0;
}
