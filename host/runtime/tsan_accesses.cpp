// The compiler's memory-access callbacks (-fsanitize=thread): plain,
// unaligned, volatile and compound accesses of 1..16 bytes, the _pc
// variants, ranges, vptr accesses, memcpy/memmove/memset (function entry and
// exit: tsan_call_stack.cpp). Each appends to the thread's buffer; none
// takes a lock. Built without a frame pointer (CMakeLists.txt): the fast path
// then saves no register at all.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

using raceaccel::rt::record_access;

#define RACEACCEL_ADDR(p) reinterpret_cast<uint64_t>(p)

// clang-format off
#define RACEACCEL_ACCESS_CALLBACKS(n)                                                                           \
  RACEACCEL_EXPORT void __tsan_read##n(void* a) { record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_write##n(void* a) { record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_unaligned_read##n(void* a) { record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_unaligned_write##n(void* a) { record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_volatile_read##n(void* a) { record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_volatile_write##n(void* a) { record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_unaligned_volatile_read##n(void* a) { record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_unaligned_volatile_write##n(void* a) { record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT void __tsan_read##n##_pc(void* a, void* pc) { record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_ADDR(pc)); } \
  RACEACCEL_EXPORT void __tsan_write##n##_pc(void* a, void* pc) { record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_ADDR(pc)); } \
  RACEACCEL_EXPORT void __tsan_unaligned_read##n##_pc(void* a, void* pc) { record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_ADDR(pc)); } \
  RACEACCEL_EXPORT void __tsan_unaligned_write##n##_pc(void* a, void* pc) { record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_ADDR(pc)); } \
  /* A compound access (x += 1) is checked as the read, then the write, it performs. */  \
  RACEACCEL_EXPORT void __tsan_read_write##n(void* a) {                                                         \
    record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_CALLER);                                               \
    record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_CALLER);                                                \
  }                                                                                                             \
  RACEACCEL_EXPORT void __tsan_unaligned_read_write##n(void* a) {                                               \
    record_access(RACEACCEL_ADDR(a), n, false, RACEACCEL_CALLER);                                               \
    record_access(RACEACCEL_ADDR(a), n, true, RACEACCEL_CALLER);                                                \
  }
// clang-format on

RACEACCEL_ACCESS_CALLBACKS(1)
RACEACCEL_ACCESS_CALLBACKS(2)
RACEACCEL_ACCESS_CALLBACKS(4)
RACEACCEL_ACCESS_CALLBACKS(8)
RACEACCEL_ACCESS_CALLBACKS(16)

RACEACCEL_EXPORT void __tsan_read_range(void* a, unsigned long size) {
  record_access(RACEACCEL_ADDR(a), size, false, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __tsan_write_range(void* a, unsigned long size) {
  record_access(RACEACCEL_ADDR(a), size, true, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __tsan_read_range_pc(void* a, unsigned long size, void* pc) {
  record_access(RACEACCEL_ADDR(a), size, false, RACEACCEL_ADDR(pc));
}
RACEACCEL_EXPORT void __tsan_write_range_pc(void* a, unsigned long size, void* pc) {
  record_access(RACEACCEL_ADDR(a), size, true, RACEACCEL_ADDR(pc));
}

// Virtual-table pointers: constructors store them, virtual calls load them.
// Storing the value already there (a base constructor's table again) is not
// a write that can race, so it is checked as a read.
RACEACCEL_EXPORT void __tsan_vptr_update(void** vptr, void* new_value) {
  record_access(RACEACCEL_ADDR(vptr), sizeof(void*), *vptr != new_value, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __tsan_vptr_read(void** vptr) {
  record_access(RACEACCEL_ADDR(vptr), sizeof(void*), false, RACEACCEL_CALLER);
}

// Memory intrinsics (clang >= 16): the runtime performs the operation.
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
