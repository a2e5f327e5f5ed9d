// The compiler's memory-access callbacks (-fsanitize=thread): plain,
// unaligned, volatile and compound accesses of 1..16 bytes, the _pc
// variants, ranges and vptr accesses (memcpy/memmove/memset:
// tsan_intrinsics.cpp; function entry and exit: tsan_call_stack.cpp). Each
// decides a covered access inline or appends it to the thread's buffer; none
// takes a lock. Built without a frame pointer (CMakeLists.txt): the fast path
// then saves no register at all. Built twice: into the runtime, and into
// libraceaccel_rt_fast.a for the program itself (hot_path.hpp), so this file
// uses nothing of the runtime but the fast path and its slow-path calls.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/exported.hpp"
#include "runtime/runtime.hpp"

using raceaccel::rt::record_access;

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
