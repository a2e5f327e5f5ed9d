/* OpenMP (GCC's libgomp): a parallel loop adds into a shared variable
 * without a reduction, critical or atomic: a race on `sum` (the OpenMP
 * interceptors must order only what OpenMP orders). Usage: THREADS. */
#include <omp.h>
#include <stdlib.h>

enum { kN = 4000 };

static double input[kN];
double sum;

int main(int argc, char** argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 3);
  for (int i = 0; i < kN; i++) input[i] = 1.0;
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < kN; i++) sum += input[i];
  return sum > 0 ? 0 : 1;
}
