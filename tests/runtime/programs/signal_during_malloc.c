// A profiling timer interrupts a thread that allocates all the time, and the
// handler walks call paths it never took before (so the runtime's call-site
// trie grows inside the handler) and writes a global. Before the runtime had
// its own heap, a handler arriving inside glibc's malloc deadlocked on the
// arena lock (about one run in 25). Clean: ends with status 0.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t ticks;
static volatile unsigned long path_bits;

__attribute__((noinline)) static void walk(unsigned long bits, int depth);
__attribute__((noinline)) static void left(unsigned long bits, int depth) { walk(bits >> 1, depth - 1); }
__attribute__((noinline)) static void right(unsigned long bits, int depth) { walk(bits >> 1, depth - 1); }
__attribute__((noinline)) static void walk(unsigned long bits, int depth) {
  if (depth == 0) return;
  if (bits & 1)
    right(bits, depth);
  else
    left(bits, depth);
}

static void on_tick(int sig) {
  (void)sig;
  walk(path_bits++, 24);  // a new path of 24 frames nearly every time
  ticks = ticks + 1;
}

// A second thread: glibc's malloc takes its arena lock only once the
// process has more than one thread.
static void* idle(void* arg) {
  (void)arg;
  pause();
  return NULL;
}

int main(void) {
  // The idle thread starts with SIGPROF blocked: the handler runs on main only.
  sigset_t prof;
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &prof, NULL);
  pthread_t t;
  pthread_create(&t, NULL, idle, NULL);
  pthread_sigmask(SIG_UNBLOCK, &prof, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_tick;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval every = {{0, 200}, {0, 200}};  // 5 kHz of CPU time
  setitimer(ITIMER_PROF, &every, NULL);
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    for (int i = 0; i < 1000; ++i) {
      void* p = malloc(2048 + (size_t)(i % 64) * 512);  // beyond glibc's per-thread cache: the arena lock
      memset(p, i, 16);
      free(p);
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 1500000000L);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  return ticks > 0 ? 0 : 1;
}
