/* OpenMP (GCC's libgomp): every construct that orders memory, each used
 * the way its specification allows: a parallel loop with a reduction, the
 * barrier after a worksharing loop (static and dynamic schedules), a
 * critical section (unnamed and named), single (and its copyprivate
 * broadcast), ordered, sections, the
 * lock API, and data written before a region and read after it. Clean.
 * Usage: openmp_clean THREADS. (libgomp synchronizes its team with futexes
 * no interceptor sees: before the OpenMP interceptors every run reported
 * races, as stock TSan does with libgomp.) */
#include <omp.h>
#include <stdlib.h>

enum { kN = 4000 };

static double input[kN], squares[kN], shifted[kN];
static long hits, named_hits, lock_hits, single_runs, copied_sum, first_section, second_section;
static long ordered_last = -1, ordered_bad;
static omp_lock_t lock;

int main(int argc, char** argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 3);
  omp_init_lock(&lock);
  for (int i = 0; i < kN; i++) input[i] = i * 0.5;  // before the regions: read in them

  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < kN; i++) sum += input[i];

#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < kN; i++) squares[i] = input[i] * input[i];
      // The loop's barrier: every square is written before any is read.
#pragma omp for schedule(dynamic, 64)
    for (int i = 0; i < kN; i++) shifted[i] = squares[(i + 1) % kN];
      // And the dynamic loop's barrier (GOMP_loop_end).
#pragma omp critical
    hits += (long)shifted[0];
#pragma omp critical(named)
    named_hits++;
    omp_set_lock(&lock);
    lock_hits++;
    omp_unset_lock(&lock);
#pragma omp single
    single_runs++;
    // single copyprivate: one thread's value, broadcast to the team.
    long broadcast;
#pragma omp single copyprivate(broadcast)
    broadcast = (long)squares[2];
#pragma omp critical(copies)
    copied_sum += broadcast;
    // single's barrier, then ordered iterations one after another.
#pragma omp for ordered schedule(dynamic, 1)
    for (int i = 0; i < 64; i++) {
#pragma omp ordered
      {
        if (ordered_last != i - 1) ordered_bad++;
        ordered_last = i;
      }
    }
#pragma omp sections
    {
#pragma omp section
      first_section = 1;
#pragma omp section
      second_section = 1;
    }
  }
  // After the regions: everything their threads wrote.
  const int threads = argc > 1 ? atoi(argv[1]) : 3;
  const int ok = sum == 0.5 * kN * (kN - 1) / 2 && shifted[0] == squares[1] && hits == threads * (long)squares[1] &&
                 named_hits == threads && lock_hits == threads && single_runs == 1 &&
                 copied_sum == threads * (long)squares[2] && ordered_last == 63 && ordered_bad == 0 &&
                 first_section == 1 && second_section == 1;
  omp_destroy_lock(&lock);
  return ok ? 0 : 1;
}
