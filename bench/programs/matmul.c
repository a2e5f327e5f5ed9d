/* Benchmark kernel: parallel dense matrix multiply C = A * B (doubles), rows
 * of C split among the threads. Memory-access bound under a race detector:
 * every inner iteration reads A and B.
 * Usage: matmul [N=1000] [THREADS=4]; prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct Job {
  const double *a, *b;
  double *c;
  int n, row_begin, row_end;
};

static void *multiply_rows(void *arg) {
  struct Job *job = arg;
  const int n = job->n;
  for (int i = job->row_begin; i < job->row_end; i++)
    for (int k = 0; k < n; k++) {
      const double aik = job->a[(size_t)i * n + k];
      for (int j = 0; j < n; j++) job->c[(size_t)i * n + j] += aik * job->b[(size_t)k * n + j];
    }
  return 0;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1000;
  const int threads = argc > 2 ? atoi(argv[2]) : 4;
  if (n <= 0 || threads <= 0 || threads > 256) {
    fprintf(stderr, "usage: matmul [N>0] [THREADS 1..256]\n");
    return 2;
  }
  double *a = malloc(sizeof(double) * (size_t)n * n);
  double *b = malloc(sizeof(double) * (size_t)n * n);
  double *c = calloc((size_t)n * n, sizeof(double));
  if (!a || !b || !c) return 2;
  for (size_t i = 0; i < (size_t)n * n; i++) {
    a[i] = (double)(i % 7) - 3.0;
    b[i] = (double)(i % 5) * 0.5;
  }
  pthread_t tid[256];
  struct Job jobs[256];
  for (int t = 0; t < threads; t++) {
    jobs[t] = (struct Job){a, b, c, n, n * t / threads, n * (t + 1) / threads};
    pthread_create(&tid[t], 0, multiply_rows, &jobs[t]);
  }
  for (int t = 0; t < threads; t++) pthread_join(tid[t], 0);
  double checksum = 0;
  for (size_t i = 0; i < (size_t)n * n; i++) checksum += c[i];
  printf("matmul n=%d threads=%d checksum=%.1f\n", n, threads, checksum);
  free(a);
  free(b);
  free(c);
  return 0;
}
