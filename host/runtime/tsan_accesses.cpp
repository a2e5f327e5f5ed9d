// The compiler's memory-access and call-stack callbacks (-fsanitize=thread):
// plain, unaligned, volatile and compound accesses of 1..16 bytes, the _pc
// variants, ranges, vptr accesses, memcpy/memmove/memset, function entry/exit.
// Each appends to the thread's buffer; none takes a lock.
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

// Shadow call stack: entering a function descends in the call-site trie
// (through a per-thread cache), leaving it returns to the saved node.
//
// Each frame also keeps the stack pointer of its function. longjmp,
// siglongjmp and exceptions the compiler did not see can leave frames whose
// function is gone; such frames lie deeper in the machine stack than the
// function now entering (or leaving), so they are dropped here, and by the
// longjmp interceptors at once (raceaccel::rt::unwind_shadow_stack).
namespace raceaccel::rt {
namespace {
// The instrumented caller's stack pointer at its call of the callback: the
// callback's frame (it keeps a frame pointer) plus the saved frame pointer
// and return address.
inline uint64_t caller_sp() { return reinterpret_cast<uint64_t>(__builtin_frame_address(0)) + 16; }

// Pops frames whose recorded stack pointer is below sp (or at it, when
// at_too): functions that returned without telling.
inline void drop_stale_frames(ThreadState* ts, uint64_t sp, bool at_too) {
  while (ts->depth > ts->stack_floor && ts->depth <= kMaxShadowDepth) {
    const uint64_t top = ts->frame_sp[ts->depth - 1];
    if (top > sp || (top == sp && !at_too)) break;
    ts->node = ts->stack[--ts->depth];
  }
}
}  // namespace

void unwind_shadow_stack(uint64_t sp) {
  if (ThreadState* ts = t_thread) {
    ts->stack_floor = 0;  // a jump out of a signal handler leaves it
    drop_stale_frames(ts, sp, false);
  }
}
}  // namespace raceaccel::rt

RACEACCEL_EXPORT __attribute__((noinline)) void __tsan_func_entry(void* caller_pc) {
  using namespace raceaccel::rt;
  ThreadState* ts = t_thread;
  if (__builtin_expect(ts == nullptr, 0)) {
    ts = traced_thread();
    if (ts == nullptr) return;
  }
  const uint64_t pc = RACEACCEL_ADDR(caller_pc);
  const uint64_t sp = caller_sp();
  drop_stale_frames(ts, sp, true);
  if (__builtin_expect(ts->depth >= kMaxShadowDepth, 0)) {  // deep recursion: frames beyond are not kept
    ++ts->depth;
    return;
  }
  const size_t slot = ((pc * 0x9E3779B97F4A7C15ull) ^ (uint64_t{ts->node} * 0xC2B2AE3D27D4EB4Full)) >> 56;
  ThreadState::TrieCacheEntry& c = ts->trie_cache[slot % kCacheSlots];
  uint32_t child;
  if (c.child != 0 && c.pc == pc && c.parent == ts->node) {
    child = c.child;
  } else if (__builtin_expect(t_in_runtime != 0, 0)) {
    // A signal handler that interrupted the runtime (possibly inside the
    // trie's lock): stay at the caller's node.
    child = ts->node;
  } else {
    RuntimeScope scope;
    child = runtime_if_started()->stacks().child(ts->node, pc);
    c = {pc, ts->node, child};
  }
  ts->frame_sp[ts->depth] = sp;
  ts->stack[ts->depth++] = ts->node;
  ts->node = child;
}

RACEACCEL_EXPORT __attribute__((noinline)) void __tsan_func_exit() {
  using namespace raceaccel::rt;
  ThreadState* ts = t_thread;
  if (ts == nullptr || ts->depth == 0) return;
  drop_stale_frames(ts, caller_sp(), false);
  if (ts->depth == ts->stack_floor) return;
  if (--ts->depth < kMaxShadowDepth) ts->node = ts->stack[ts->depth];
}

RACEACCEL_EXPORT void __tsan_init() { raceaccel::rt::runtime(); }

// Code the compiler was told not to instrument (disable_sanitizer_instrumentation).
RACEACCEL_EXPORT void __tsan_ignore_thread_begin() {
  if (auto* ts = raceaccel::rt::traced_thread()) ++ts->ignore_reads, ++ts->ignore_writes;
}
RACEACCEL_EXPORT void __tsan_ignore_thread_end() {
  if (auto* ts = raceaccel::rt::traced_thread()) {
    if (ts->ignore_reads != 0) --ts->ignore_reads;
    if (ts->ignore_writes != 0) --ts->ignore_writes;
  }
}
