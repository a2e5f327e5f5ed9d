/* peak_rss OUT_FILE PROGRAM [ARGS...]: runs PROGRAM and appends one line
 * "WALL_MS CPU_MS PEAK_RSS_KIB" to OUT_FILE: its wall time, its CPU time
 * (user + system, from getrusage of the waited-for child) and its peak
 * resident set size. scripts/bench_programs.sh measures every run with it.
 * Exits with the program's exit status (128+signal if it was killed). */
#define _DEFAULT_SOURCE  // wait4 under -std=c11
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double ms_of(struct timeval tv) { return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: peak_rss OUT_FILE PROGRAM [ARGS...]\n");
    return 2;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  pid_t child = fork();
  if (child < 0) {
    perror("peak_rss: fork");
    return 2;
  }
  if (child == 0) {
    execvp(argv[2], argv + 2);
    perror("peak_rss: exec");
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(child, &status, 0, &usage) < 0) {
    perror("peak_rss: wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  FILE *out = fopen(argv[1], "a");
  if (!out) {
    perror("peak_rss: output file");
    return 2;
  }
  const double wall_ms = (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
  fprintf(out, "%.0f %.0f %ld\n", wall_ms, ms_of(usage.ru_utime) + ms_of(usage.ru_stime), usage.ru_maxrss);
  fclose(out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
