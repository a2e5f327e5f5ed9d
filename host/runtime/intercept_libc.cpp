// libc functions that read or write the program's memory: the string and
// memory functions and stdio's buffer functions. Each is checked as the bytes
// it really touches (strlen: the string and its terminator; strcmp: up to the
// first difference; memcmp: all n bytes of both, like ThreadSanitizer's
// default strict_memcmp=1), recorded as the calling thread's accesses.
// printf-family arguments (%s) are not checked.
//
// glibc declares several of these as const-correct C++ overloads (strchr,
// memchr, ...), which an extern "C" definition would clash with; every
// interceptor here therefore has a C++ name of its own and takes the C
// symbol through an asm label, and the real functions are looked up with
// explicit types.
#include <stdio.h>
#include <time.h>

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

void read_string(const char* s, uint64_t pc) { program_read(s, length(s) + 1, pc); }
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
