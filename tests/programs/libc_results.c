/* libc functions that write the program's memory (a result, a buffer, an
 * out-parameter) or read it without the program touching it itself: only
 * their interceptors show those accesses. Thread A makes the calls of one
 * group, each on its own 512-byte slot; then (the test barrier: ordered in
 * time, no happens-before) thread B writes one byte of every slot:
 *   race    a byte the call wrote (or read: memmem; B reads qsort's array):
 *           one race per call, so exactly as many reports as the group has
 *           calls (REPORTS in the table);
 *   beside  the first byte after what the call touched (snprintf: after the
 *           terminator of its cut text; readlink: after its bytes, it writes
 *           no terminator): clean, which only an interceptor that records
 *           exactly the bytes written gets right.
 * Usage: libc_results GROUP race|beside, GROUP one of format, time, files,
 * fstat, system, math, poll, arrays, or all (beside only).
 * Before these interceptors every race row ran clean (stock TSan reports
 * them all). */
#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "test_barrier.h"

enum { kSlots = 48, kSlotSize = 512 };
static struct { _Alignas(64) unsigned char bytes[kSlotSize]; } slot[kSlots];
// How many bytes each call touches from its slot's start: B writes the byte
// after them in `beside` mode. Set by main before the threads start.
static size_t extent[kSlots];
// In `race` mode B writes byte race_at[i] (0 unless set), or reads it where
// b_reads[i]: the byte and the kind of access only the call's interceptor
// conflicts with (qsort's comparator, the program's own code, reads the
// array: B reads it, and only qsort's moves race with that).
static size_t race_at[kSlots];
static unsigned char b_reads[kSlots];
static volatile unsigned char sink;
static int used;  // the slots the selected groups use
static unsigned order;
static int dir_fd;
static char passwd_buf[4096], group_buf[4096];
static volatile double real_input = 6.75;

static void* at(int i) { return slot[i].bytes; }

static int format_v(char* d, size_t size, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = vsnprintf(d, size, fmt, ap);
  va_end(ap);
  return r;
}
static int format_unbounded_v(char* d, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = vsprintf(d, fmt, ap);
  va_end(ap);
  return r;
}
static int by_value(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }
static int by_value_r(const void* a, const void* b, void* arg) {
  (void)arg;
  return by_value(a, b);
}

// Each group's calls, from slot `first` on; with `a` false only the
// extents are set (by main, before the threads exist: B reads them).
#define STEP(call, bytes)     \
  do {                        \
    if (i >= kSlots) abort(); \
    if (a) {                  \
      if (!(call)) abort();   \
    } else {                  \
      extent[i] = (bytes);    \
    }                         \
    ++i;                      \
  } while (0)
static int format_calls(int first, int a) {
  int i = first;
  STEP(snprintf(at(i), 16, "%d", 123) == 3, 4);    // "123": 4 bytes
  STEP(snprintf(at(i), 4, "%d", 123456) == 6, 4);  // cut to "123": 4 bytes, returns 6
  STEP(sprintf(at(i), "%d", 42) == 2, 3);
  STEP(format_v(at(i), 16, "%s-%d", "ab", 7) == 4, 5);
  STEP(format_unbounded_v(at(i), "%x", 255) == 2, 3);
  return i;
}
static int time_calls(int first, int a) {
  int i = first;
  STEP(time(at(i)) != (time_t)-1, sizeof(time_t));
  STEP(clock_gettime(CLOCK_MONOTONIC, at(i)) == 0, sizeof(struct timespec));
  return i;
}
static int files_calls(int first, int a) {
  int i = first;
  STEP(stat("/", at(i)) == 0, sizeof(struct stat));
  STEP(lstat("/", at(i)) == 0, sizeof(struct stat));
  char cwd[kSlotSize];
  if (!getcwd(cwd, sizeof cwd)) abort();
  STEP(getcwd(at(i), kSlotSize) != 0, strlen(cwd) + 1);
  STEP(realpath("/", at(i)) != 0, 2);  // "/": 2 bytes
  // readlink: the path, with no terminator.
  STEP(readlink("/proc/self/cwd", at(i), kSlotSize) == (ssize_t)strlen(cwd), strlen(cwd));
  STEP(readlinkat(AT_FDCWD, "/proc/self/cwd", at(i), kSlotSize) == (ssize_t)strlen(cwd), strlen(cwd));
  return i;
}
// Stock TSan checks neither what fstat nor what fstatat fills: their own group.
static int fstat_calls(int first, int a) {
  int i = first;
  STEP(fstat(dir_fd, at(i)) == 0, sizeof(struct stat));
  STEP(fstatat(AT_FDCWD, "/", at(i), 0) == 0, sizeof(struct stat));
  return i;
}
static int system_calls(int first, int a) {
  int i = first;
  STEP(uname(at(i)) == 0, sizeof(struct utsname));
  STEP(sched_getaffinity(0, sizeof(cpu_set_t), at(i)) == 0, sizeof(cpu_set_t));
  STEP(getrandom(at(i), 8, 0) == 8, 8);
  const struct in_addr addr = {htonl(0x01020304)};
  STEP(inet_ntop(AF_INET, &addr, at(i), 64) != 0, 8);  // "1.2.3.4"
  struct passwd* pw = 0;
  STEP(getpwnam_r("root", at(i), passwd_buf, sizeof passwd_buf, &pw) == 0 && pw, sizeof(struct passwd));
  struct group* gr = 0;
  STEP(getpwuid_r(0, at(i), passwd_buf, sizeof passwd_buf, &pw) == 0 && pw, sizeof(struct passwd));
  STEP(getgrnam_r("root", at(i), group_buf, sizeof group_buf, &gr) == 0 && gr, sizeof(struct group));
  STEP(getgrgid_r(0, at(i), group_buf, sizeof group_buf, &gr) == 0 && gr, sizeof(struct group));
  return i;
}
static int math_calls(int first, int a) {
  int i = first;
  STEP(frexp(real_input, at(i)) == 0.84375, sizeof(int));
  STEP(modf(real_input, at(i)) == 0.75, sizeof(double));
  STEP(frexpf((float)real_input, at(i)) == 0.84375f, sizeof(int));
  STEP(modff((float)real_input, at(i)) == 0.75f, sizeof(float));
  STEP(frexpl(real_input, at(i)) == 0.84375L, sizeof(int));
  STEP(modfl(real_input, at(i)) == 0.75L, sizeof(long double));
  return i;
}
// The inputs are set up by main (`a` false), before the threads exist: B's
// write then races with the call alone.
static int poll_calls(int first, int a) {
  int i = first;
  for (int k = 0; k < 2; ++k) {
    if (!a) {
      struct pollfd* p = at(i + k);
      p->fd = -1;  // ignored by the kernel, which still writes its revents (0)
      p->events = POLLIN;
      race_at[i + k] = offsetof(struct pollfd, revents);  // stock TSan reads fd and events only
    }
  }
  const struct timespec no_wait = {0, 0};
  STEP(poll(at(i), 1, 0) == 0, sizeof(struct pollfd));
  STEP(ppoll(at(i), 1, &no_wait, 0) == 0, sizeof(struct pollfd));
  return i;
}
static int arrays_calls(int first, int a) {
  int i = first;
  int* v = at(i);
  char* hay = at(i + 1);
  int* w = at(i + 3);
  if (!a) {
    for (int k = 0; k < 8; ++k) v[k] = w[k] = (k * 5) % 8;
    memcpy(hay, "xxxxneedleyyyyyy", 16);
    b_reads[i] = b_reads[i + 3] = 1;
  }
  STEP((qsort(v, 8, sizeof *v, by_value), v[7] == 7), 8 * sizeof(int));
  STEP(memmem(hay, 16, "needle", 6) == hay + 4, 16);          // raceaccel reads up to the match's end, TSan all 16
  STEP(mbstowcs(at(i), "abc", 8) == 3, 4 * sizeof(wchar_t));  // 3 characters and the terminator
  STEP((qsort_r(w, 8, sizeof *w, by_value_r, 0), w[7] == 7), 8 * sizeof(int));
  return i;
}

typedef int (*Group)(int first, int a);
static const struct {
  const char* name;
  Group calls;
} kGroups[] = {{"format", format_calls}, {"time", time_calls}, {"files", files_calls}, {"fstat", fstat_calls},
               {"system", system_calls}, {"math", math_calls}, {"poll", poll_calls},   {"arrays", arrays_calls}};
enum { kGroupCount = sizeof kGroups / sizeof kGroups[0] };
static int selected[kGroupCount];
static int beside;

static void* thread_a(void* arg) {
  (void)arg;
  int i = 0;
  for (int g = 0; g < kGroupCount; ++g) {
    if (selected[g]) i = kGroups[g].calls(i, 1);
  }
  __tsan_testonly_barrier_wait(&order);
  return 0;
}
static void* thread_b(void* arg) {
  (void)arg;
  __tsan_testonly_barrier_wait(&order);
  for (int i = 0; i < used; ++i) {
    const size_t k = beside ? extent[i] : race_at[i];
    if (b_reads[i]) {
      sink = slot[i].bytes[k];
    } else {
      slot[i].bytes[k] = 1;
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  beside = strcmp(argv[2], "beside") == 0;
  if (!beside && strcmp(argv[2], "race") != 0) return 2;
  for (int g = 0; g < kGroupCount; ++g)
    selected[g] = strcmp(argv[1], "all") == 0 || strcmp(argv[1], kGroups[g].name) == 0;
  dir_fd = open("/", O_RDONLY);
  if (dir_fd < 0) return 3;
  for (int g = 0; g < kGroupCount; ++g) {
    if (selected[g]) used = kGroups[g].calls(used, 0);
  }
  if (used == 0) return 2;
  __tsan_testonly_barrier_init(&order, 2);
  pthread_t a, b;
  pthread_create(&a, 0, thread_a, 0);
  pthread_create(&b, 0, thread_b, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
