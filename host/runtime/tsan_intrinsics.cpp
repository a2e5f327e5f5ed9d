// The compiler's memory intrinsics (clang >= 16: __tsan_memcpy & co.), which
// the runtime performs after recording their accesses, and the
// instrumentation's start-up and ignore callbacks. In the runtime only
// (tsan_accesses.cpp's callbacks are also linked into the program).
#include <cstddef>
#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

using raceaccel::rt::record_access;

RACEACCEL_EXPORT void* __tsan_memcpy(void* dst, const void* src, size_t n) {
  record_access(RACEACCEL_ADDR(src), n, false, RACEACCEL_CALLER);
  record_access(RACEACCEL_ADDR(dst), n, true, RACEACCEL_CALLER);
  return RACEACCEL_REAL(memcpy)(dst, src, n);
}
RACEACCEL_EXPORT void* __tsan_memmove(void* dst, const void* src, size_t n) {
  record_access(RACEACCEL_ADDR(src), n, false, RACEACCEL_CALLER);
  record_access(RACEACCEL_ADDR(dst), n, true, RACEACCEL_CALLER);
  return RACEACCEL_REAL(memmove)(dst, src, n);
}
RACEACCEL_EXPORT void* __tsan_memset(void* dst, int c, size_t n) {
  record_access(RACEACCEL_ADDR(dst), n, true, RACEACCEL_CALLER);
  return RACEACCEL_REAL(memset)(dst, c, n);
}

RACEACCEL_EXPORT void __tsan_init() { raceaccel::rt::runtime(); }

// Code the compiler was told not to instrument (disable_sanitizer_instrumentation).
RACEACCEL_EXPORT void __tsan_ignore_thread_begin() {
  if (auto* ts = raceaccel::rt::traced_thread()) ts->ignore_begin(true, true);
}
RACEACCEL_EXPORT void __tsan_ignore_thread_end() {
  if (auto* ts = raceaccel::rt::traced_thread()) {
    if (ts->ignore_reads != 0) --ts->ignore_reads;
    if (ts->ignore_writes != 0) --ts->ignore_writes;
  }
}
