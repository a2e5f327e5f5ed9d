// Per-thread state of the runtime: the access buffer, the shadow call stack
// and small caches that keep the hot path free of locks.
//
// The buffer is written only by its thread. `count` is published with a
// release store after each entry, so the exit path (another thread, holding
// the thread's drain lock) can also drain the entries [consumed, count) of a
// thread that is still running; the owner drains its buffer only under the
// same lock (docs/runtime.md, "Event path").
#pragma once

#include <signal.h>
#include <sys/types.h>
#include <ucontext.h>

#include <atomic>
#include <cstdint>

#include "core/event.hpp"
#include "runtime/call_stacks.hpp"
#include "runtime/internal_mutex.hpp"
#include "runtime/owner_lock.hpp"
#include "runtime/region_filter.hpp"
#include "runtime/sharded_fasttrack.hpp"

namespace raceaccel::rt {

// What the inline fast path needs to extend an open run (coalescing,
// runtime.hpp) without calling the slow path: where the run ends, and per
// phase of its pattern the pc and covered prefix (lead) of the access that
// continues it. The run's state stays in the buffer (its length) and in its
// RunPattern (the phase), which the fast path updates as extend_recent_run
// would; every change the slow path makes to an armed run arms it again,
// and whatever makes a run unextendable (a drain, an entry that is not a
// plain access, a new region) disarms both (close_streams).
inline constexpr uint32_t kNoStreamLead = ~uint32_t{0};
struct StreamExpect {
  uint64_t pc = 0;
  uint32_t lead = kNoStreamLead;  // kNoStreamLead: no access continues the run at this phase
  uint32_t next = 0;              // the phase after that access's units
};
struct StreamTail {
  uint64_t end = 0;                   // the run's end (0: not armed; no access starts there)
  uint64_t limit = 0;                 // its end after kMaxRunLength bytes
  uint32_t* length = nullptr;         // the run's BufferedEvent::length
  uint32_t* pattern_phase = nullptr;  // its RunPattern::phase (own_phase for a run of one pc)
  uint32_t size_kind = 0;             // of its accesses
  uint32_t node = 0;                  // their call stack
  uint32_t phase = 0;                 // index into expect
  uint32_t own_phase = 0;
  StreamExpect expect[kMaxRunPeriod];  // by phase (one entry for a run of one pc)
};

// The region filter's state that the inline fast path reads (runtime.hpp,
// record_access), in the thread's static TLS rather than in its
// ThreadState: the fast path reaches it with one %fs-relative load (after
// the GOT's offset in the runtime; at a link-time offset in a program
// linked with the callbacks, hot_path.hpp), where through t_thread it took a load of the pointer
// and then one of each field — one more step on the chain of dependent
// loads that every access waits for. Only the thread itself reads or writes
// it: every writer (ThreadState::new_region, leave_young_table,
// ignore_begin, record_access_full, attach and detach) runs on the thread
// whose state it is, so it needs no synchronization and dies with the
// thread, as the region does.
struct RegionView {
  // What record_access's inline test compares the forget epoch with: the
  // thread's forget_epoch_seen while nothing else stops the fast path
  // (ThreadState::fast_path_allowed), kFastPathOff otherwise (and on a
  // thread not attached), so that one compare stands for all of them.
  // record_access_full sets it; an ignore annotation and detach turn it off.
  static constexpr uint64_t kFastPathOff = ~uint64_t{0};  // the forget epoch never gets there
  static constexpr int64_t kWholeTableLeft = INT64_MAX;
  uint64_t fast_epoch = kFastPathOff;
  // The current region's generation: a synchronization event of the thread
  // starts a new one (ThreadState::new_region); the tables start zeroed, so
  // 0 is no region's.
  uint64_t generation = 1;
  // The table the region's lines go to (region_filter.hpp, kYoungSlots):
  // the thread's young table, then its whole table once the region met
  // young_limit lines (young_left counts them down; in the whole table it
  // starts at kWholeTableLeft and never reaches 0).
  RegionEntry* table = nullptr;
  uint64_t mask = 0;
  int64_t young_left = 0;
  // Accesses the filter decided since the thread's last drain (statistics,
  // count_decided), here so that the fast path needs nothing but this view.
  uint64_t decided = 0;
  // Accesses the inline fast path added to an open run (extend_stream),
  // since the thread's last drain (statistics, as decided).
  uint64_t streamed = 0;
  // Two open runs the fast path may extend without a call (runtime.hpp,
  // extend_stream): a loop's streams of accesses, each armed by the slow
  // path when it extends the run (arm_stream, runtime.cpp).
  StreamTail streams[2];
  uint32_t stream_victim = 0;  // the slot the next run arms (the other was armed last)
};
extern __thread RegionView t_region RACEACCEL_FAST_PATH_TLS;
inline void count_decided(uint64_t n) { t_region.decided += n; }
// No open run may be extended inline any more (a drain, an entry that ends
// the open runs, a new region).
inline void close_streams() {
  t_region.streams[0].end = 0;
  t_region.streams[1].end = 0;
}
inline uint64_t take_own_streamed() {
  const uint64_t n = t_region.streamed;
  t_region.streamed = 0;
  return n;
}
// The calling thread's count since it last took it (its own drains, its
// exit). Another thread cannot read it: the exit's drain of a thread still
// running leaves out what that thread decided since its last drain
// (statistics only; docs/runtime.md, "The hot path").
inline uint64_t take_own_decided() {
  const uint64_t n = t_region.decided;
  t_region.decided = 0;
  return n;
}

// One buffered access. size_kind is the access's own size and kind (its
// site); length is how many bytes the entry covers, more than the size when
// contiguous accesses of that size and kind were coalesced into it (a run;
// pc is then kPatternPc | pattern index if they came from several pcs).
// lead: how many leading bytes of each access the region filter found
// already covered (a 16-byte load half of which an earlier load read): the
// entry holds only the rest of each, from addr on; the access itself
// started lead bytes earlier (reports and recordings name it whole). A
// record-only entry (below) of an access a run absorbed holds the run's
// index + 1 there instead (0: none).
struct BufferedEvent {
  uint64_t addr;
  uint64_t pc;
  uint32_t node;
  uint32_t size_kind;
  uint32_t length;
  uint32_t lead = 0;
};

// A buffered access the region filter decided, kept only for the recording
// (record=: the recorded stream is the unfiltered one, so that any detector
// can check the filter's verdicts against it). Bit 31 of size_kind is free:
// access kinds take bits 28..30.
inline constexpr uint32_t kRecordOnly = 1u << 31;
// The bytes each access of entry e adds to it (its unit, or stride).
inline uint32_t unit_of(const BufferedEvent& e) { return unpack_size(e.size_kind & ~kRecordOnly) - e.lead; }

inline constexpr uint32_t kBufferCapacity = 1024;
inline constexpr uint32_t kMaxShadowDepth = 1024;
inline constexpr uint32_t kCacheSlots = 256;
// Open runs (coalescing): the buffer entries a contiguous access may
// extend, the latest ones started (a loop has a few streams: a vectorized
// stencil one read and one write run). Searched, not hashed by where a run
// ends: two streams a fixed distance apart would share a slot at almost
// every step under a multiplicative hash, for some distances.
inline constexpr uint32_t kRunSlots = 4;
// Longest run (one detector event covers it).
inline constexpr uint32_t kMaxRunLength = 1u << 24;

// A run whose units come from several instructions in turn: an unrolled or
// vectorized loop has one instruction per lane of its body, each with a
// stride of the whole body. The run is cut into units of
// pattern_unit(size) bytes; unit i (counted from the run's start) lies
// offsets[i % period] bytes into an access made at pcs[i % period]. The
// first units are held literally (up to kMaxRunPeriod of them,
// call_stacks.hpp), so a longer period cannot occur. The buffer entry names
// the pattern by kPatternPc | index into ThreadState::patterns; the checker
// interns it at the drain as a pattern site (call_stacks.hpp), from which a
// report takes the pc of the very access that touched its byte.
inline constexpr uint32_t kPatternSlots = 64;
struct RunPattern {
  uint32_t period;
  uint32_t phase;  // units % period: which pc and offset the next unit must have
  uint32_t units;  // units so far
  uint64_t pcs[kMaxRunPeriod];
  uint8_t offsets[kMaxRunPeriod];
};
// The unit of a pattern run of accesses of `size` bytes: 8 bytes when the
// size is a multiple of 8 (a 16-byte load whose first half the region
// filter found covered adds one unit, a whole one two), else the access.
inline uint32_t pattern_unit(uint32_t size) { return size % 8 == 0 ? 8 : size; }
// Whether an access of `size` bytes, the first `lead` of them left out,
// adds whole units (no division on the hot path).
inline bool whole_units(uint32_t size, uint32_t lead) { return (size & 7) == 0 ? (lead & 7) == 0 : lead == 0; }

struct ThreadState {
  ThreadId tid = 0;
  std::atomic<uint32_t> count{0};  // entries appended since the last drain by the owner
  uint32_t consumed = 0;           // entries already drained by the exit path (drain lock)
  uint32_t ignore_reads = 0;       // AnnotateIgnoreReadsBegin nesting
  uint32_t ignore_writes = 0;      // AnnotateIgnoreWritesBegin nesting
  uint32_t ignore_sync = 0;        // AnnotateIgnoreSyncBegin nesting
  uint32_t node = 0;               // current call stack (StackTrie node)
  uint32_t depth = 0;              // shadow stack depth (may exceed kMaxShadowDepth)
  uint32_t stack_floor = 0;        // frames below this depth belong to code a signal handler interrupted
  int destructor_rounds = 0;
  bool linked = false;  // in the checker's live list
  // Signals whose handler waits for the thread to leave the runtime (bit s:
  // signal s), with what the kernel passed (the context of the latest one).
  std::atomic<uint64_t> deferred_signals{0};
  siginfo_t deferred_info[65];
  ucontext_t deferred_context;
  ThreadState* prev = nullptr;
  ThreadState* next = nullptr;
  // Parallel checking: held while the buffer is drained and while the
  // thread's synchronization event is applied (which changes `view`). The
  // thread itself takes it at every drain and synchronization event
  // (OwnerLockGuard, no locked instruction), other threads rarely (lock()).
  OwnerLock drain_mu;
  ClockView view;
  struct Counts {  // statistics of parallel checking (under drain_mu)
    uint64_t drains = 0;
    uint64_t accesses = 0;
    uint64_t events = 0;    // synchronization, atomic, Alloc and Free events
    uint64_t filtered = 0;  // accesses the region filter decided (take_own_decided)
    uint64_t absorbed = 0;  // accesses the runtime coalesced into an open run (take_absorbed)
    uint64_t streamed = 0;  // accesses the callbacks added to an open run (take_own_streamed)
  };
  Counts counts;

  struct TrieCacheEntry {
    uint64_t pc;
    uint32_t parent;
    uint32_t child;  // 0: empty (the root is nobody's child)
  };
  struct SiteCacheEntry {  // a code site (SiteDepot): the same for every call stack
    uint64_t pc;
    uint32_t size_kind;
    uint32_t code_plus_1;  // 0: empty
  };
  // The sync-free region filter (region_filter.hpp): the forget epoch the
  // region was last checked against; the region's generation, table and
  // fast-path epoch are the thread's RegionView (t_region, above).
  uint64_t forget_epoch_seen = 0;
  // Lines a region meets in the young table before it moves to the whole
  // one (RegionView::young_left; 0: always the whole table).
  uint32_t young_limit = kYoungLinesDefault;
  bool fast_path_allowed() const {
    return ignore_reads == 0 && ignore_writes == 0 && region_filter && !record_filtered;
  }
  // Starts ignoring reads and/or writes (annotations, uninstrumented code).
  // By the thread itself, as every change of its RegionView.
  void ignore_begin(bool reads, bool writes);
  std::atomic<uint64_t> absorbed_runs{0};  // statistics (count_absorbed)
  bool region_filter = true;               // RACEACCEL_OPTIONS region_filter
  bool record_filtered = false;            // record=: filtered accesses are still buffered (kRecordOnly)
  bool coalesce = true;                    // RACEACCEL_OPTIONS coalesce
  bool inline_runs = true;                 // RACEACCEL_OPTIONS inline_runs (arm_stream)
  // The thread's last atomic load, for repeats decided without the checker
  // (tsan_atomics.cpp, "Repeated loads"): valid while the region, the forget
  // epoch and the location's store version are the ones it saw.
  struct AtomicLoadMemo {
    uint64_t addr;
    uint64_t generation;  // region generation after the load (0: none)
    uint64_t forget_epoch;
    uint32_t version;
    uint8_t size;
    uint8_t order;
  };
  AtomicLoadMemo load_memo;
  // A few locations whose clock the thread holds (it stored there last, or
  // acquired the location's clock with a load), for loads of them that need
  // no lock (tsan_atomics.cpp, "Loads of a clock the thread holds"): each
  // valid while the forget epoch and its location's store version are the
  // ones it saw. Several: a pipeline stage stores the index of the ring it
  // reads and the index of the ring it writes.
  struct HeldClock {
    uint64_t addr;
    uint64_t forget_epoch;
    uint32_t version;
    uint8_t size;  // 0: none
  };
  static constexpr uint32_t kHeldClocks = 4;
  HeldClock held_clocks[kHeldClocks]{};
  uint32_t next_held_clock = 0;  // the entry a new location replaces (round robin)
  bool own_loads = false;        // RACEACCEL_OPTIONS own_loads, with parallel checking and not recording
  pid_t os_tid = 0;              // the kernel's id of the thread (again after fork): mutex owner checks
  // Coalescing (runtime.hpp, append_plain): buffer indexes of open runs, and
  // the first index a run may start at (entries before an Alloc entry or a
  // drain cannot be extended).
  uint32_t merge_floor = 0;
  uint32_t runs[kRunSlots];
  uint32_t next_run = 0;  // the slot the next run takes (round robin)
  // The two runs last started or extended, latest first (~0: none since the
  // drain): a loop's streams of accesses (record_unfiltered).
  uint32_t recent_runs[2] = {~0u, ~0u};
  // Pops shadow-stack frames whose recorded stack pointer is below sp (or at
  // it, when at_too): functions that returned without telling
  // (tsan_call_stack.cpp, intercept_longjmp.cpp).
  void drop_stale_frames(uint64_t sp, bool at_too) {
    while (depth > stack_floor && depth <= kMaxShadowDepth) {
      const uint64_t top = frame_sp[depth - 1];
      if (top > sp || (top == sp && !at_too)) break;
      node = stack[--depth];
    }
  }
  // No run below buffer index `floor` may be extended any more, by the
  // runtime (merge_floor) or by the callbacks (their armed streams).
  void end_open_runs(uint32_t floor) {
    merge_floor = floor;
    close_streams();
  }
  void note_recent_run(uint32_t run) {
    if (recent_runs[0] != run) {
      recent_runs[1] = recent_runs[0];
      recent_runs[0] = run;
    }
  }
  uint32_t patterns_used = 0;  // since the last drain by the owner
  RunPattern patterns[kPatternSlots];
  TrieCacheEntry trie_cache[kCacheSlots];
  SiteCacheEntry site_cache[kCacheSlots];
  // Pattern code sites (Checker::pattern_site_of) met lately, so that a
  // loop's runs do not take the report lock to intern their pattern at
  // every drain.
  struct PatternSiteEntry {
    PcPattern pattern;
    uint32_t size_kind;
    uint32_t code_plus_1;  // 0: empty
  };
  static constexpr uint32_t kPatternCacheSlots = 16;
  PatternSiteEntry pattern_cache[kPatternCacheSlots];
  uint32_t stack[kMaxShadowDepth];     // callers' nodes
  uint64_t frame_sp[kMaxShadowDepth];  // each frame's stack pointer at its entry (stale-frame detection)
  RegionEntry young[kYoungSlots];
  BufferedEvent buffer[kBufferCapacity];
  // Last: most of it is never touched by a short thread (mmap'ed lazily).
  RegionEntry region[kRegionSlots];

  // A synchronization event of the thread (or its own allocation) ends the
  // region: nothing seen before it covers an access after it. The new
  // region starts in the young table (its old entries have an older
  // generation). By the thread itself (RegionView).
  void new_region();
  // The region has met young_limit lines (young_left ran out; an access
  // over two lines can take it below 0): its entries move to the whole
  // table, where the region goes on.
  void leave_young_table();
  // Accesses an open run absorbed (coalescing): counted by the thread (a
  // plain load and store: only it writes), taken by whoever drains it,
  // under the thread's drain lock (so never by two takers at once). By
  // another thread (the exit's drain of a thread still running): an
  // exchange, since the thread may be counting meanwhile. By the thread
  // itself: a load and a store, since no one else counts; an exchange is a
  // locked instruction, and drains of sync-heavy threads are frequent
  // (atomic_pipeline on one core: 241 -> 231 ms of CPU, median of 7).
  void count_absorbed() {
    absorbed_runs.store(absorbed_runs.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  uint64_t take_absorbed(bool by_owner) { return take(absorbed_runs, by_owner); }

 private:
  static uint64_t take(std::atomic<uint64_t>& counter, bool by_owner) {
    if (!by_owner) return counter.exchange(0, std::memory_order_relaxed);
    const uint64_t n = counter.load(std::memory_order_relaxed);
    counter.store(0, std::memory_order_relaxed);
    return n;
  }
};

// The calling thread's state; nullptr before its first event. Static TLS
// (hot_path.hpp): no TLS wrapper call. A covered access does not read it
// (the fast path reads t_region); its slow paths do.
extern __thread ThreadState* t_thread RACEACCEL_FAST_PATH_TLS;
// Nonzero while the thread's events are not traced: interceptors then only
// forward to the real functions. kRuntimeCode: the thread runs runtime code
// (the runtime's own allocations, locks and threads, and foreign code it
// calls); its allocations come from the runtime's own heap
// (internal_heap.hpp). kUntracedHandler: a signal handler that interrupted
// the runtime runs untraced, allocating from the program's heap as the
// program would (docs/runtime.md, "Signals").
inline constexpr uint8_t kRuntimeCode = 1;
inline constexpr uint8_t kUntracedHandler = 2;
extern __thread uint8_t t_in_runtime RACEACCEL_FAST_PATH_TLS;
inline bool in_runtime_code() { return (t_in_runtime & kRuntimeCode) != 0; }
// Set when a signal arrived while the thread ran runtime code: its handler
// was deferred and runs when the thread leaves the runtime
// (intercept_signals.cpp).
// Shared with the program's callbacks (extend_stream defers signals too).
extern __thread bool t_signals_deferred RACEACCEL_FAST_PATH_TLS;
RACEACCEL_NOINLINE RACEACCEL_SHARED_WITH_PROGRAM void run_deferred_signals();
// Set on a thread whose state was torn down (after its last TLS destructor);
// its remaining events are not traced.
extern __thread bool t_thread_done __attribute__((tls_model("initial-exec")));

// Marks runtime code. The signal fences keep the compiler from moving the
// flag's stores across what the scope does: a signal handler on this thread
// must see the flag set for all of it.
class RuntimeScope {
 public:
  RuntimeScope() : saved_(t_in_runtime) {
    t_in_runtime = kRuntimeCode;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~RuntimeScope() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    t_in_runtime = saved_;
    // The flag is read after the store: a signal between them runs at once.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (__builtin_expect(saved_ == 0 && t_signals_deferred, 0)) run_deferred_signals();
  }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;

 private:
  uint8_t saved_;
};

inline void ThreadState::new_region() {
  ++t_region.generation;
  close_streams();
  if (young_limit != 0) {
    t_region.table = young;
    t_region.mask = kYoungSlots - 1;
    t_region.young_left = young_limit;
  } else {
    t_region.table = region;
    t_region.mask = kRegionSlots - 1;
    t_region.young_left = RegionView::kWholeTableLeft;
  }
}

inline void ThreadState::leave_young_table() {
  for (const RegionEntry& e : young) {
    if (e.generation == t_region.generation) region[e.line & (kRegionSlots - 1)] = e;
  }
  t_region.table = region;
  t_region.mask = kRegionSlots - 1;
  t_region.young_left = RegionView::kWholeTableLeft;
}

inline void ThreadState::ignore_begin(bool reads, bool writes) {
  ignore_reads += reads ? 1 : 0;
  ignore_writes += writes ? 1 : 0;
  t_region.fast_epoch = RegionView::kFastPathOff;
}

}  // namespace raceaccel::rt
