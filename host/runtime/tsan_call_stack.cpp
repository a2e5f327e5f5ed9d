// The compiler's call-stack callbacks (-fsanitize=thread): function entry
// and exit maintain the thread's shadow call stack. Built with a frame
// pointer, which caller_sp() reads (the access callbacks, in
// tsan_accesses.cpp, are built without one). Built twice, as the access
// callbacks are (hot_path.hpp): into the runtime and into the program, so
// this file uses nothing of the runtime but ThreadState, the shared TLS and
// the exported slow paths (attach_slow, enter_uncached_call_site).
#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/runtime.hpp"

// Shadow call stack: entering a function descends in the call-site trie
// (through a per-thread cache), leaving it returns to the saved node.
//
// Each frame also keeps the stack pointer of its function. longjmp,
// siglongjmp and exceptions the compiler did not see can leave frames whose
// function is gone; such frames lie deeper in the machine stack than the
// function now entering (or leaving), so they are dropped here
// (ThreadState::drop_stale_frames), and by the longjmp interceptors at once
// (intercept_longjmp.cpp).
namespace raceaccel::rt {
namespace {
// The instrumented caller's stack pointer at its call of the callback: the
// callback's frame (it keeps a frame pointer) plus the saved frame pointer
// and return address.
inline uint64_t caller_sp() { return reinterpret_cast<uint64_t>(__builtin_frame_address(0)) + 16; }
}  // namespace
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
  ts->drop_stale_frames(sp, true);
  if (__builtin_expect(ts->depth >= kMaxShadowDepth, 0)) {  // deep recursion: frames beyond are not kept
    ++ts->depth;
    return;
  }
  const size_t slot = ((pc * 0x9E3779B97F4A7C15ull) ^ (uint64_t{ts->node} * 0xC2B2AE3D27D4EB4Full)) >> 56;
  ThreadState::TrieCacheEntry& c = ts->trie_cache[slot % kCacheSlots];
  const uint32_t child =
      c.child != 0 && c.pc == pc && c.parent == ts->node ? c.child : enter_uncached_call_site(ts, pc, c);
  ts->frame_sp[ts->depth] = sp;
  ts->stack[ts->depth++] = ts->node;
  ts->node = child;
}

RACEACCEL_EXPORT __attribute__((noinline)) void __tsan_func_exit() {
  using namespace raceaccel::rt;
  ThreadState* ts = t_thread;
  if (ts == nullptr || ts->depth == 0) return;
  ts->drop_stale_frames(caller_sp(), false);
  if (ts->depth == ts->stack_floor) return;
  if (--ts->depth < kMaxShadowDepth) ts->node = ts->stack[ts->depth];
}
