// libc functions that read or write the program's memory: the string and
// memory functions and stdio's buffer functions. Each is checked as the bytes
// it really touches (strlen: the string and its terminator; strcmp: up to the
// first difference; memcmp: all n bytes of both, like ThreadSanitizer's
// default strict_memcmp=1), recorded as the calling thread's accesses.
// printf-family arguments (%s) are not checked.
//
// Functions that fill a result the program passes in (stat, time, poll's
// revents, getcwd's buffer, snprintf's destination, qsort's array, ...)
// record it as written after the call, when the call succeeded, and exactly
// as far as the call says it wrote (snprintf: its return value cut at the
// buffer's size; readlink: the bytes it returns, no terminator); their
// inputs (paths, formats, haystacks) as read.
//
// glibc declares several of these as const-correct C++ overloads (strchr,
// memchr, ...), which an extern "C" definition would clash with; every
// interceptor here therefore has a C++ name of its own and takes the C
// symbol through an asm label, and the real functions are looked up with
// explicit types.
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <wchar.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstddef>
#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/libc_access.hpp"
#include "runtime/real_functions.hpp"

using namespace raceaccel::rt;

// The interceptor of the C function `name`, with C++ name intercept_<name>.
#define RACEACCEL_LIBC(ret, name, ...)                                                                \
  extern "C" __attribute__((visibility("default"))) ret intercept_##name(__VA_ARGS__) __asm__(#name); \
  extern "C" ret intercept_##name(__VA_ARGS__)
// The real `name`, of type `type`.
#define RACEACCEL_NEXT(type, name)                        \
  (reinterpret_cast<type>([]() -> void* {                 \
    static std::atomic<void*> slot{nullptr};              \
    void* fn = slot.load(std::memory_order_acquire);      \
    if (fn == nullptr) {                                  \
      fn = ::raceaccel::rt::resolve_next(#name, nullptr); \
      slot.store(fn, std::memory_order_release);          \
    }                                                     \
    return fn;                                            \
  }()))

namespace {

using StrlenFn = size_t (*)(const char*);
using StrnlenFn = size_t (*)(const char*, size_t);
size_t length(const char* s) { return RACEACCEL_NEXT(StrlenFn, strlen)(s); }
size_t length(const char* s, size_t max) { return RACEACCEL_NEXT(StrnlenFn, strnlen)(s, max); }

// A null string reads nothing here: the real call then fails (EFAULT,
// EINVAL) or crashes as it would without the runtime.
void read_string(const char* s, uint64_t pc) {
  if (s != nullptr) program_read(s, length(s) + 1, pc);
}
size_t until(const void* found, const void* start) {
  return static_cast<size_t>(static_cast<const char*>(found) - static_cast<const char*>(start));
}

// How many bytes a comparison of a and b reads from each: up to and
// including the first difference or terminator, at most n.
size_t compared(const char* a, const char* b, size_t n, bool fold_case) {
  size_t i = 0;
  for (; i < n; ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    const bool differ = fold_case ? std::tolower(x) != std::tolower(y) : x != y;
    if (differ || x == 0) return i + 1;
  }
  return n;
}

}  // namespace

// ---- memory --------------------------------------------------------------------
RACEACCEL_LIBC(int, memcmp, const void* a, const void* b, size_t n) {
  program_read(a, n, RACEACCEL_CALLER);
  program_read(b, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const void*, const void*, size_t), memcmp)(a, b, n);
}
RACEACCEL_LIBC(int, bcmp, const void* a, const void* b, size_t n) {
  program_read(a, n, RACEACCEL_CALLER);
  program_read(b, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const void*, const void*, size_t), bcmp)(a, b, n);
}
RACEACCEL_LIBC(void*, memchr, const void* s, int c, size_t n) {
  void* r = RACEACCEL_NEXT(void* (*)(const void*, int, size_t), memchr)(s, c, n);
  program_read(s, r != nullptr ? until(r, s) + 1 : n, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(void*, memrchr, const void* s, int c, size_t n) {
  program_read(s, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(void* (*)(const void*, int, size_t), memrchr)(s, c, n);
}

// ---- strings: reading ------------------------------------------------------------
RACEACCEL_LIBC(size_t, strlen, const char* s) {
  const size_t n = length(s);
  program_read(s, n + 1, RACEACCEL_CALLER);
  return n;
}
RACEACCEL_LIBC(size_t, strnlen, const char* s, size_t max) {
  const size_t n = length(s, max);
  program_read(s, n < max ? n + 1 : max, RACEACCEL_CALLER);
  return n;
}
RACEACCEL_LIBC(int, strcmp, const char* a, const char* b) {
  const size_t n = compared(a, b, SIZE_MAX, false);
  program_read(a, n, RACEACCEL_CALLER);
  program_read(b, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const char*, const char*), strcmp)(a, b);
}
RACEACCEL_LIBC(int, strncmp, const char* a, const char* b, size_t max) {
  const size_t n = compared(a, b, max, false);
  program_read(a, n, RACEACCEL_CALLER);
  program_read(b, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const char*, const char*, size_t), strncmp)(a, b, max);
}
RACEACCEL_LIBC(int, strcasecmp, const char* a, const char* b) {
  const size_t n = compared(a, b, SIZE_MAX, true);
  program_read(a, n, RACEACCEL_CALLER);
  program_read(b, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const char*, const char*), strcasecmp)(a, b);
}
RACEACCEL_LIBC(int, strncasecmp, const char* a, const char* b, size_t max) {
  const size_t n = compared(a, b, max, true);
  program_read(a, n, RACEACCEL_CALLER);
  program_read(b, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const char*, const char*, size_t), strncasecmp)(a, b, max);
}
RACEACCEL_LIBC(char*, strchr, const char* s, int c) {
  char* r = RACEACCEL_NEXT(char* (*)(const char*, int), strchr)(s, c);
  program_read(s, r != nullptr ? until(r, s) + 1 : length(s) + 1, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(char*, strrchr, const char* s, int c) {
  read_string(s, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(const char*, int), strrchr)(s, c);
}
RACEACCEL_LIBC(char*, strstr, const char* s, const char* sub) {
  char* r = RACEACCEL_NEXT(char* (*)(const char*, const char*), strstr)(s, sub);
  const size_t sub_len = length(sub);
  program_read(s, r != nullptr ? until(r, s) + sub_len : length(s) + 1, RACEACCEL_CALLER);
  program_read(sub, sub_len + 1, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(char*, strpbrk, const char* s, const char* set) {
  char* r = RACEACCEL_NEXT(char* (*)(const char*, const char*), strpbrk)(s, set);
  program_read(s, r != nullptr ? until(r, s) + 1 : length(s) + 1, RACEACCEL_CALLER);
  read_string(set, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(size_t, strspn, const char* s, const char* set) {
  const size_t r = RACEACCEL_NEXT(size_t(*)(const char*, const char*), strspn)(s, set);
  program_read(s, r + 1, RACEACCEL_CALLER);
  read_string(set, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(size_t, strcspn, const char* s, const char* set) {
  const size_t r = RACEACCEL_NEXT(size_t(*)(const char*, const char*), strcspn)(s, set);
  program_read(s, r + 1, RACEACCEL_CALLER);
  read_string(set, RACEACCEL_CALLER);
  return r;
}
// The copy's block comes from malloc (intercepted): only the source is checked.
RACEACCEL_LIBC(char*, strdup, const char* s) {
  read_string(s, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(const char*), strdup)(s);
}
RACEACCEL_LIBC(char*, strndup, const char* s, size_t max) {
  const size_t n = length(s, max);
  program_read(s, n < max ? n + 1 : max, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(const char*, size_t), strndup)(s, max);
}

// ---- strings: writing ----------------------------------------------------------
RACEACCEL_LIBC(char*, strcpy, char* d, const char* s) {
  const size_t n = length(s) + 1;
  program_read(s, n, RACEACCEL_CALLER);
  program_write(d, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(char*, const char*), strcpy)(d, s);
}
RACEACCEL_LIBC(char*, stpcpy, char* d, const char* s) {
  const size_t n = length(s) + 1;
  program_read(s, n, RACEACCEL_CALLER);
  program_write(d, n, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(char*, const char*), stpcpy)(d, s);
}
// strncpy pads the destination with zeros: all n bytes are written.
RACEACCEL_LIBC(char*, strncpy, char* d, const char* s, size_t max) {
  const size_t n = length(s, max);
  program_read(s, n < max ? n + 1 : max, RACEACCEL_CALLER);
  program_write(d, max, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(char*, const char*, size_t), strncpy)(d, s, max);
}
RACEACCEL_LIBC(char*, strcat, char* d, const char* s) {
  const size_t dn = length(d), sn = length(s);
  program_read(d, dn + 1, RACEACCEL_CALLER);
  program_read(s, sn + 1, RACEACCEL_CALLER);
  program_write(d + dn, sn + 1, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(char*, const char*), strcat)(d, s);
}
RACEACCEL_LIBC(char*, strncat, char* d, const char* s, size_t max) {
  const size_t dn = length(d), sn = length(s, max);
  program_read(d, dn + 1, RACEACCEL_CALLER);
  program_read(s, sn < max ? sn + 1 : max, RACEACCEL_CALLER);
  program_write(d + dn, sn + 1, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(char* (*)(char*, const char*, size_t), strncat)(d, s, max);
}

// ---- stdio buffers -----------------------------------------------------------------
RACEACCEL_LIBC(int, puts, const char* s) {
  read_string(s, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const char*), puts)(s);
}
RACEACCEL_LIBC(int, fputs, const char* s, FILE* f) {
  read_string(s, RACEACCEL_CALLER);
  return RACEACCEL_NEXT(int (*)(const char*, FILE*), fputs)(s, f);
}
RACEACCEL_LIBC(size_t, fwrite, const void* p, size_t size, size_t n, FILE* f) {
  const size_t r = RACEACCEL_NEXT(size_t(*)(const void*, size_t, size_t, FILE*), fwrite)(p, size, n, f);
  program_read(p, r * size, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(size_t, fread, void* p, size_t size, size_t n, FILE* f) {
  const size_t r = RACEACCEL_NEXT(size_t(*)(void*, size_t, size_t, FILE*), fread)(p, size, n, f);
  program_write(p, r * size, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(char*, fgets, char* s, int size, FILE* f) {
  char* r = RACEACCEL_NEXT(char* (*)(char*, int, FILE*), fgets)(s, size, f);
  if (r != nullptr) program_write(s, length(s) + 1, RACEACCEL_CALLER);
  return r;
}

// ---- time conversions ---------------------------------------------------------
// localtime, gmtime, ctime and asctime return a buffer of libc's own that
// every call writes: two threads calling them race on it (ThreadSanitizer
// reports that), which the program's reads of the result alone would not
// show. Each records the buffer (or the caller's, for the _r forms) as
// written, and its input as read.
namespace {
// A conversion of *input whose result (a struct tm or a string) convert()
// returns: the input read, the result written.
template <typename In, typename Convert>
auto converted(const In* input, uint64_t pc, Convert convert) {
  program_read(input, sizeof *input, pc);
  auto* result = convert();
  if (result != nullptr) {
    if constexpr (sizeof *result == 1) {
      program_write(result, length(result) + 1, pc);
    } else {
      program_write(result, sizeof *result, pc);
    }
  }
  return result;
}
}  // namespace

RACEACCEL_LIBC(struct tm*, localtime, const time_t* t) {
  return converted(t, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(struct tm * (*)(const time_t*), localtime)(t); });
}
RACEACCEL_LIBC(struct tm*, gmtime, const time_t* t) {
  return converted(t, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(struct tm * (*)(const time_t*), gmtime)(t); });
}
RACEACCEL_LIBC(struct tm*, localtime_r, const time_t* t, struct tm* out) {
  return converted(t, RACEACCEL_CALLER,
                   [&] { return RACEACCEL_NEXT(struct tm * (*)(const time_t*, struct tm*), localtime_r)(t, out); });
}
RACEACCEL_LIBC(struct tm*, gmtime_r, const time_t* t, struct tm* out) {
  return converted(t, RACEACCEL_CALLER,
                   [&] { return RACEACCEL_NEXT(struct tm * (*)(const time_t*, struct tm*), gmtime_r)(t, out); });
}
RACEACCEL_LIBC(char*, ctime, const time_t* t) {
  return converted(t, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(char* (*)(const time_t*), ctime)(t); });
}
RACEACCEL_LIBC(char*, asctime, const struct tm* tm) {
  return converted(tm, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(char* (*)(const struct tm*), asctime)(tm); });
}

// ---- results written into the caller's memory ----------------------------------
namespace {
// A call that fills `size` bytes at `out` when it returns 0 (stat, uname,
// clock_gettime, sched_getaffinity, ...): written after it, nothing on failure.
template <typename Call>
int filled(const void* out, size_t size, uint64_t pc, Call call) {
  const int r = call();
  if (r == 0) program_write(out, size, pc);
  return r;
}
// The same, for a call that first reads a path (the stat family): the
// kernel copies the string in whether or not the call then succeeds.
template <typename Call>
int filled_from_path(const char* path, const void* out, size_t size, uint64_t pc, Call call) {
  read_string(path, pc);
  return filled(out, size, pc, call);
}
// A call that always stores through `out` (frexp's exponent, modf's integral part).
template <typename Out, typename Call>
auto stored(Out* out, uint64_t pc, Call call) {
  const auto r = call();
  program_write(out, sizeof *out, pc);
  return r;
}
// A call that returns the string it wrote (getcwd, realpath, inet_ntop),
// or null having written nothing the program can rely on.
template <typename Call>
auto string_result(uint64_t pc, Call call) {
  auto* r = call();
  if (r != nullptr) program_write(r, length(r) + 1, pc);
  return r;
}
// A call that returns how many bytes it wrote at `out` (readlink, getrandom).
template <typename Call>
ssize_t counted(const void* out, uint64_t pc, Call call) {
  const ssize_t r = call();
  if (r > 0) program_write(out, static_cast<size_t>(r), pc);
  return r;
}
}  // namespace

RACEACCEL_LIBC(time_t, time, time_t* t) {
  const time_t r = RACEACCEL_NEXT(time_t(*)(time_t*), time)(t);
  if (t != nullptr && r != static_cast<time_t>(-1)) program_write(t, sizeof *t, RACEACCEL_CALLER);
  return r;
}
RACEACCEL_LIBC(int, clock_gettime, clockid_t clock, struct timespec* ts) {
  return filled(ts, sizeof *ts, RACEACCEL_CALLER,
                [&] { return RACEACCEL_NEXT(int (*)(clockid_t, struct timespec*), clock_gettime)(clock, ts); });
}
RACEACCEL_LIBC(int, uname, struct utsname* u) {
  return filled(u, sizeof *u, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(int (*)(struct utsname*), uname)(u); });
}
// glibc clears the part of the mask the kernel did not fill: all `size` bytes.
RACEACCEL_LIBC(int, sched_getaffinity, pid_t pid, size_t size, cpu_set_t* mask) {
  return filled(mask, size, RACEACCEL_CALLER,
                [&] { return RACEACCEL_NEXT(int (*)(pid_t, size_t, cpu_set_t*), sched_getaffinity)(pid, size, mask); });
}

// The stat family (glibc exports these since 2.33; the 64 forms are the
// same functions on 64-bit targets, and -D_FILE_OFFSET_BITS=64 calls them).
RACEACCEL_LIBC(int, stat, const char* path, struct stat* st) {
  return filled_from_path(path, st, sizeof *st, RACEACCEL_CALLER,
                          [&] { return RACEACCEL_NEXT(int (*)(const char*, struct stat*), stat)(path, st); });
}
RACEACCEL_LIBC(int, lstat, const char* path, struct stat* st) {
  return filled_from_path(path, st, sizeof *st, RACEACCEL_CALLER,
                          [&] { return RACEACCEL_NEXT(int (*)(const char*, struct stat*), lstat)(path, st); });
}
RACEACCEL_LIBC(int, fstat, int fd, struct stat* st) {
  return filled(st, sizeof *st, RACEACCEL_CALLER,
                [&] { return RACEACCEL_NEXT(int (*)(int, struct stat*), fstat)(fd, st); });
}
RACEACCEL_LIBC(int, fstatat, int dir, const char* path, struct stat* st, int flags) {
  return filled_from_path(path, st, sizeof *st, RACEACCEL_CALLER, [&] {
    return RACEACCEL_NEXT(int (*)(int, const char*, struct stat*, int), fstatat)(dir, path, st, flags);
  });
}
RACEACCEL_LIBC(int, stat64, const char* path, struct stat64* st) {
  return filled_from_path(path, st, sizeof *st, RACEACCEL_CALLER,
                          [&] { return RACEACCEL_NEXT(int (*)(const char*, struct stat64*), stat64)(path, st); });
}
RACEACCEL_LIBC(int, lstat64, const char* path, struct stat64* st) {
  return filled_from_path(path, st, sizeof *st, RACEACCEL_CALLER,
                          [&] { return RACEACCEL_NEXT(int (*)(const char*, struct stat64*), lstat64)(path, st); });
}
RACEACCEL_LIBC(int, fstat64, int fd, struct stat64* st) {
  return filled(st, sizeof *st, RACEACCEL_CALLER,
                [&] { return RACEACCEL_NEXT(int (*)(int, struct stat64*), fstat64)(fd, st); });
}
RACEACCEL_LIBC(int, fstatat64, int dir, const char* path, struct stat64* st, int flags) {
  return filled_from_path(path, st, sizeof *st, RACEACCEL_CALLER, [&] {
    return RACEACCEL_NEXT(int (*)(int, const char*, struct stat64*, int), fstatat64)(dir, path, st, flags);
  });
}

// Paths. getcwd(NULL, 0) and realpath(p, NULL) return a block from malloc
// (intercepted), which the calling thread writes all the same.
RACEACCEL_LIBC(char*, getcwd, char* buf, size_t size) {
  return string_result(RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(char* (*)(char*, size_t), getcwd)(buf, size); });
}
RACEACCEL_LIBC(char*, realpath, const char* path, char* resolved) {
  const uint64_t pc = RACEACCEL_CALLER;
  read_string(path, pc);
  return string_result(pc, [&] { return RACEACCEL_NEXT(char* (*)(const char*, char*), realpath)(path, resolved); });
}
// readlink writes no terminator: exactly the bytes it returns.
RACEACCEL_LIBC(ssize_t, readlink, const char* path, char* buf, size_t size) {
  const uint64_t pc = RACEACCEL_CALLER;
  read_string(path, pc);
  return counted(buf, pc,
                 [&] { return RACEACCEL_NEXT(ssize_t(*)(const char*, char*, size_t), readlink)(path, buf, size); });
}
RACEACCEL_LIBC(ssize_t, readlinkat, int dir, const char* path, char* buf, size_t size) {
  const uint64_t pc = RACEACCEL_CALLER;
  read_string(path, pc);
  return counted(buf, pc, [&] {
    return RACEACCEL_NEXT(ssize_t(*)(int, const char*, char*, size_t), readlinkat)(dir, path, buf, size);
  });
}
RACEACCEL_LIBC(ssize_t, getrandom, void* buf, size_t n, unsigned flags) {
  return counted(buf, RACEACCEL_CALLER,
                 [&] { return RACEACCEL_NEXT(ssize_t(*)(void*, size_t, unsigned), getrandom)(buf, n, flags); });
}
// The address read (4 or 16 bytes; nothing for a family it rejects), the text written.
RACEACCEL_LIBC(const char*, inet_ntop, int af, const void* src, char* dst, socklen_t size) {
  const uint64_t pc = RACEACCEL_CALLER;
  program_read(src, af == AF_INET ? 4 : af == AF_INET6 ? 16 : 0, pc);
  return string_result(pc, [&] {
    return RACEACCEL_NEXT(const char* (*)(int, const void*, char*, socklen_t), inet_ntop)(af, src, dst, size);
  });
}

// ---- math out-parameters ----------------------------------------------------------
RACEACCEL_LIBC(double, frexp, double x, int* e) {
  return stored(e, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(double (*)(double, int*), frexp)(x, e); });
}
RACEACCEL_LIBC(float, frexpf, float x, int* e) {
  return stored(e, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(float (*)(float, int*), frexpf)(x, e); });
}
RACEACCEL_LIBC(long double, frexpl, long double x, int* e) {
  return stored(e, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(long double (*)(long double, int*), frexpl)(x, e); });
}
RACEACCEL_LIBC(double, modf, double x, double* whole) {
  return stored(whole, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(double (*)(double, double*), modf)(x, whole); });
}
RACEACCEL_LIBC(float, modff, float x, float* whole) {
  return stored(whole, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(float (*)(float, float*), modff)(x, whole); });
}
RACEACCEL_LIBC(long double, modfl, long double x, long double* whole) {
  return stored(whole, RACEACCEL_CALLER,
                [&] { return RACEACCEL_NEXT(long double (*)(long double, long double*), modfl)(x, whole); });
}

// ---- formatting into a buffer -------------------------------------------------------
namespace {
// The format read, then the text written: the r characters the call
// returned, cut at size - 1, and the terminator (nothing for size 0 or an
// error). sprintf is unbounded (size SIZE_MAX). %s arguments are not checked.
template <typename Call>
int formatted(char* d, size_t size, const char* fmt, uint64_t pc, Call call) {
  read_string(fmt, pc);
  const int r = call();
  if (r >= 0 && size != 0) program_write(d, std::min(static_cast<size_t>(r), size - 1) + 1, pc);
  return r;
}
using VsnprintfFn = int (*)(char*, size_t, const char*, va_list);
using VsprintfFn = int (*)(char*, const char*, va_list);
// The fortified forms (-D_FORTIFY_SOURCE): `slen` is the object's size,
// checked by libc, which aborts rather than write past it.
using VsnprintfChkFn = int (*)(char*, size_t, int, size_t, const char*, va_list);
using VsprintfChkFn = int (*)(char*, int, size_t, const char*, va_list);
}  // namespace

RACEACCEL_LIBC(int, vsnprintf, char* d, size_t size, const char* fmt, va_list ap) {
  return formatted(d, size, fmt, RACEACCEL_CALLER,
                   [&] { return RACEACCEL_NEXT(VsnprintfFn, vsnprintf)(d, size, fmt, ap); });
}
RACEACCEL_LIBC(int, vsprintf, char* d, const char* fmt, va_list ap) {
  return formatted(d, SIZE_MAX, fmt, RACEACCEL_CALLER,
                   [&] { return RACEACCEL_NEXT(VsprintfFn, vsprintf)(d, fmt, ap); });
}
RACEACCEL_LIBC(int, snprintf, char* d, size_t size, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = formatted(d, size, fmt, RACEACCEL_CALLER,
                          [&] { return RACEACCEL_NEXT(VsnprintfFn, vsnprintf)(d, size, fmt, ap); });
  va_end(ap);
  return r;
}
RACEACCEL_LIBC(int, sprintf, char* d, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r =
      formatted(d, SIZE_MAX, fmt, RACEACCEL_CALLER, [&] { return RACEACCEL_NEXT(VsprintfFn, vsprintf)(d, fmt, ap); });
  va_end(ap);
  return r;
}
RACEACCEL_LIBC(int, __vsnprintf_chk, char* d, size_t size, int flag, size_t slen, const char* fmt, va_list ap) {
  return formatted(d, size, fmt, RACEACCEL_CALLER,
                   [&] { return RACEACCEL_NEXT(VsnprintfChkFn, __vsnprintf_chk)(d, size, flag, slen, fmt, ap); });
}
RACEACCEL_LIBC(int, __vsprintf_chk, char* d, int flag, size_t slen, const char* fmt, va_list ap) {
  return formatted(d, SIZE_MAX, fmt, RACEACCEL_CALLER,
                   [&] { return RACEACCEL_NEXT(VsprintfChkFn, __vsprintf_chk)(d, flag, slen, fmt, ap); });
}
RACEACCEL_LIBC(int, __snprintf_chk, char* d, size_t size, int flag, size_t slen, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = formatted(d, size, fmt, RACEACCEL_CALLER, [&] {
    return RACEACCEL_NEXT(VsnprintfChkFn, __vsnprintf_chk)(d, size, flag, slen, fmt, ap);
  });
  va_end(ap);
  return r;
}
RACEACCEL_LIBC(int, __sprintf_chk, char* d, int flag, size_t slen, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = formatted(d, SIZE_MAX, fmt, RACEACCEL_CALLER,
                          [&] { return RACEACCEL_NEXT(VsprintfChkFn, __vsprintf_chk)(d, flag, slen, fmt, ap); });
  va_end(ap);
  return r;
}

// ---- arrays and searches -----------------------------------------------------------
// qsort may move any element: the whole array is written (as ThreadSanitizer
// records it), once there are two elements to order. The comparator is the
// program's own, instrumented code.
using QsortCmp = int (*)(const void*, const void*);
using QsortRCmp = int (*)(const void*, const void*, void*);
RACEACCEL_LIBC(void, qsort, void* base, size_t n, size_t size, QsortCmp cmp) {
  RACEACCEL_NEXT(void (*)(void*, size_t, size_t, QsortCmp), qsort)(base, n, size, cmp);
  if (n > 1) program_write(base, n * size, RACEACCEL_CALLER);
}
RACEACCEL_LIBC(void, qsort_r, void* base, size_t n, size_t size, QsortRCmp cmp, void* arg) {
  RACEACCEL_NEXT(void (*)(void*, size_t, size_t, QsortRCmp, void*), qsort_r)(base, n, size, cmp, arg);
  if (n > 1) program_write(base, n * size, RACEACCEL_CALLER);
}
// As strstr: the haystack up to the end of the match (all of it when there
// is none) and the whole needle; nothing when the needle is empty or longer.
RACEACCEL_LIBC(void*, memmem, const void* hay, size_t hay_len, const void* needle, size_t needle_len) {
  void* r =
      RACEACCEL_NEXT(void* (*)(const void*, size_t, const void*, size_t), memmem)(hay, hay_len, needle, needle_len);
  if (needle_len != 0 && needle_len <= hay_len) {
    program_read(hay, r != nullptr ? until(r, hay) + needle_len : hay_len, RACEACCEL_CALLER);
    program_read(needle, needle_len, RACEACCEL_CALLER);
  }
  return r;
}
// glibc scans the source for its terminator, at most MB_CUR_MAX bytes per
// wide character the destination holds (all of it without a destination),
// and writes the characters converted and the terminator if it fit. An
// invalid sequence (-1) stops it after a prefix it does not report:
// nothing is recorded then.
RACEACCEL_LIBC(size_t, mbstowcs, wchar_t* d, const char* s, size_t n) {
  const uint64_t pc = RACEACCEL_CALLER;
  const size_t r = RACEACCEL_NEXT(size_t(*)(wchar_t*, const char*, size_t), mbstowcs)(d, s, n);
  if (r == static_cast<size_t>(-1)) return r;
  if (d == nullptr) {
    read_string(s, pc);
  } else {
    const size_t max = n > SIZE_MAX / MB_CUR_MAX ? SIZE_MAX : n * MB_CUR_MAX;
    const size_t scanned = length(s, max);
    program_read(s, scanned < max ? scanned + 1 : max, pc);
    program_write(d, (r + (r < n ? 1 : 0)) * sizeof *d, pc);
  }
  return r;
}

// ---- poll ---------------------------------------------------------------------------
// The kernel copies the whole array in and writes each revents back, on
// every return but the ones that reject the array before reading it
// (EFAULT, EINVAL: too many entries, ENOMEM); an interrupted poll writes
// them too. Both recorded after the call: poll synchronizes nothing.
namespace {
template <typename Call>
int polled(struct pollfd* fds, nfds_t n, uint64_t pc, Call call) {
  const int r = call();
  if (r >= 0 || errno == EINTR) {
    // The caller reads errno after an interrupted poll; recording an access
    // may make system calls (a full buffer handed to the checker).
    const int saved = errno;
    program_read(fds, n * sizeof *fds, pc);
    for (nfds_t i = 0; i < n; ++i) program_write(&fds[i].revents, sizeof fds[i].revents, pc);
    errno = saved;
  }
  return r;
}
}  // namespace

RACEACCEL_LIBC(int, poll, struct pollfd* fds, nfds_t n, int timeout) {
  return polled(fds, n, RACEACCEL_CALLER,
                [&] { return RACEACCEL_NEXT(int (*)(struct pollfd*, nfds_t, int), poll)(fds, n, timeout); });
}
// ppoll also reads the timeout and the kernel's signal mask (_NSIG / 8 bytes
// of the sigset_t).
RACEACCEL_LIBC(int, ppoll, struct pollfd* fds, nfds_t n, const struct timespec* timeout, const sigset_t* mask) {
  const uint64_t pc = RACEACCEL_CALLER;
  if (timeout != nullptr) program_read(timeout, sizeof *timeout, pc);
  if (mask != nullptr) program_read(mask, _NSIG / 8, pc);
  return polled(fds, n, pc, [&] {
    return RACEACCEL_NEXT(int (*)(struct pollfd*, nfds_t, const struct timespec*, const sigset_t*), ppoll)(
        fds, n, timeout, mask);
  });
}

// ---- user and group entries ---------------------------------------------------------
// getpwnam_r and relatives: the name read; *result written (also on
// failure, when glibc sets it to null); on success the entry and the strings
// it points to in the caller's buffer (the group's member array too), as
// ThreadSanitizer records them.
namespace {
void wrote_field(const char* s, uint64_t pc) {
  if (s != nullptr) program_write(s, length(s) + 1, pc);
}
void wrote_entry(const struct passwd* p, uint64_t pc) {
  program_write(p, sizeof *p, pc);
  for (const char* s : {p->pw_name, p->pw_passwd, p->pw_gecos, p->pw_dir, p->pw_shell}) wrote_field(s, pc);
}
void wrote_entry(const struct group* g, uint64_t pc) {
  program_write(g, sizeof *g, pc);
  wrote_field(g->gr_name, pc);
  wrote_field(g->gr_passwd, pc);
  if (g->gr_mem == nullptr) return;
  size_t members = 0;
  for (; g->gr_mem[members] != nullptr; ++members) wrote_field(g->gr_mem[members], pc);
  program_write(g->gr_mem, (members + 1) * sizeof *g->gr_mem, pc);
}
template <typename Entry, typename Call>
int looked_up(Entry** result, uint64_t pc, Call call) {
  const int r = call();
  if (result != nullptr) {
    program_write(result, sizeof *result, pc);
    if (r == 0 && *result != nullptr) wrote_entry(*result, pc);
  }
  return r;
}
}  // namespace

RACEACCEL_LIBC(int, getpwnam_r, const char* name, struct passwd* pwd, char* buf, size_t size, struct passwd** result) {
  const uint64_t pc = RACEACCEL_CALLER;
  read_string(name, pc);
  return looked_up(result, pc, [&] {
    return RACEACCEL_NEXT(int (*)(const char*, struct passwd*, char*, size_t, struct passwd**), getpwnam_r)(
        name, pwd, buf, size, result);
  });
}
RACEACCEL_LIBC(int, getpwuid_r, uid_t uid, struct passwd* pwd, char* buf, size_t size, struct passwd** result) {
  return looked_up(result, RACEACCEL_CALLER, [&] {
    return RACEACCEL_NEXT(int (*)(uid_t, struct passwd*, char*, size_t, struct passwd**), getpwuid_r)(uid, pwd, buf,
                                                                                                      size, result);
  });
}
RACEACCEL_LIBC(int, getgrnam_r, const char* name, struct group* grp, char* buf, size_t size, struct group** result) {
  const uint64_t pc = RACEACCEL_CALLER;
  read_string(name, pc);
  return looked_up(result, pc, [&] {
    return RACEACCEL_NEXT(int (*)(const char*, struct group*, char*, size_t, struct group**), getgrnam_r)(
        name, grp, buf, size, result);
  });
}
RACEACCEL_LIBC(int, getgrgid_r, gid_t gid, struct group* grp, char* buf, size_t size, struct group** result) {
  return looked_up(result, RACEACCEL_CALLER, [&] {
    return RACEACCEL_NEXT(int (*)(gid_t, struct group*, char*, size_t, struct group**), getgrgid_r)(gid, grp, buf, size,
                                                                                                    result);
  });
}
