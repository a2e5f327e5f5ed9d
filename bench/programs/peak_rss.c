/* peak_rss OUT_FILE PROGRAM [ARGS...]: runs PROGRAM and writes its peak
 * resident set size in KiB (getrusage of the waited-for child) to OUT_FILE.
 * scripts/bench_programs.sh uses it only where /usr/bin/time is missing.
 * Exits with the program's exit status (128+signal if it was killed). */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: peak_rss OUT_FILE PROGRAM [ARGS...]\n");
    return 2;
  }
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
  FILE *out = fopen(argv[1], "w");
  if (!out) {
    perror("peak_rss: output file");
    return 2;
  }
  fprintf(out, "%ld\n", usage.ru_maxrss);
  fclose(out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
