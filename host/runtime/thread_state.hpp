// Per-thread state of the runtime: the access buffer, the shadow call stack
// and small caches that keep the hot path free of locks.
//
// The buffer is written only by its thread. `count` is published with a
// release store after each entry, so the exit path (another thread, holding
// the checker lock) can also drain the entries [consumed, count) of a thread
// that is still running; the owner drains its buffer only under the same
// lock (docs/runtime.md, "Event path").
#pragma once

#include <atomic>
#include <cstdint>

#include "core/event.hpp"
#include "runtime/call_stacks.hpp"

namespace raceaccel::rt {

struct BufferedEvent {
  uint64_t addr;
  uint64_t pc;
  uint32_t node;
  uint32_t size_kind;
};

inline constexpr uint32_t kBufferCapacity = 1024;
inline constexpr uint32_t kMaxShadowDepth = 1024;
inline constexpr uint32_t kCacheSlots = 256;
inline constexpr uint32_t kFilterSlots = 256;

struct ThreadState {
  ThreadId tid = 0;
  std::atomic<uint32_t> count{0};  // entries appended since the last drain by the owner
  uint32_t consumed = 0;           // entries already drained by the exit path (checker lock)
  uint32_t ignore_reads = 0;       // AnnotateIgnoreReadsBegin nesting
  uint32_t ignore_writes = 0;      // AnnotateIgnoreWritesBegin nesting
  uint32_t ignore_sync = 0;        // AnnotateIgnoreSyncBegin nesting
  uint32_t node = 0;               // current call stack (StackTrie node)
  uint32_t depth = 0;              // shadow stack depth (may exceed kMaxShadowDepth)
  int destructor_rounds = 0;
  bool linked = false;  // in the checker's live list
  ThreadState* prev = nullptr;
  ThreadState* next = nullptr;

  struct TrieCacheEntry {
    uint64_t pc;
    uint32_t parent;
    uint32_t child;  // 0: empty (the root is nobody's child)
  };
  struct SiteCacheEntry {
    uint64_t pc;
    uint32_t node;
    uint32_t size_kind;
    uint64_t site;  // 0: empty
  };
  // Accesses already appended since the last drain (or Alloc): an identical
  // access (same bytes, size and kind) is not appended again. Both would be
  // checked in the same drain with only this thread's own events between
  // them and no change of its epoch, where the repeat is a no-op for the
  // detectors (docs/runtime.md, "Repeated accesses").
  struct FilterEntry {
    uint64_t addr;
    uint64_t generation;  // valid when equal to filter_generation
    uint32_t size_kind;
  };
  uint64_t filter_generation = 1;
  FilterEntry filter[kFilterSlots];
  TrieCacheEntry trie_cache[kCacheSlots];
  SiteCacheEntry site_cache[kCacheSlots];
  uint32_t stack[kMaxShadowDepth];  // callers' nodes
  BufferedEvent buffer[kBufferCapacity];
};

// The calling thread's state; nullptr before its first event. Initial-exec
// TLS: one %fs-relative load on the hot path, no TLS wrapper call.
extern __thread ThreadState* t_thread __attribute__((tls_model("initial-exec")));
// Set while the thread runs runtime code: interceptors then only forward to
// the real functions (the runtime's own allocations, locks and threads, and
// foreign code it calls, are not traced).
extern __thread bool t_in_runtime __attribute__((tls_model("initial-exec")));
// Set on a thread whose state was torn down (after its last TLS destructor);
// its remaining events are not traced.
extern __thread bool t_thread_done __attribute__((tls_model("initial-exec")));

class RuntimeScope {
 public:
  RuntimeScope() : saved_(t_in_runtime) { t_in_runtime = true; }
  ~RuntimeScope() { t_in_runtime = saved_; }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;

 private:
  bool saved_;
};

}  // namespace raceaccel::rt
