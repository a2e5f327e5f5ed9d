// The one global object of the instrumentation runtime and the entry helpers
// every callback and interceptor uses.
//
// Start-up: the library's constructor (or the first callback, whichever
// comes first: other instrumented libraries may run code earlier) creates
// the runtime. Interceptors of allocation functions never start it: they can
// run inside the dynamic loader before libc is ready.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>

#include "runtime/call_stacks.hpp"
#include "runtime/checker.hpp"
#include "runtime/heap_registry.hpp"
#include "runtime/hot_path.hpp"
#include "runtime/options.hpp"
#include "runtime/reporter.hpp"
#include "runtime/thread_registry.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/thread_state_pool.hpp"

namespace raceaccel::rt {

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& options);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const RuntimeOptions& options() const { return options_; }
  StackTrie& stacks() { return stacks_; }
  ThreadRegistry& threads() { return threads_; }
  HeapRegistry& heap() { return heap_; }
  Reporter& reporter() { return reporter_; }
  Checker& checker() { return *checker_; }

  // A state for the calling thread with id tid; records its stack and TLS
  // and clears any history left there by an earlier thread.
  ThreadState* attach_thread(ThreadId tid);
  // The thread's last TLS destructor ran: check its last accesses, free it.
  void detach_thread(ThreadState* ts);

  // At exit (once): check every buffered access, print the summary, finish
  // the recording, and return the status the process should exit with. A
  // second caller (another thread's exit or fatal signal) waits for the
  // first to end, then gets the status its reports call for.
  int finalize(int program_status);

  void before_fork();
  void after_fork_parent();
  void after_fork_child();

 private:
  // A recording's program info (checker.hpp, describe_program_with).
  void describe_program(ProgramInfo& info);
  // The status a process that finalized should exit with, given the
  // program's own.
  int exit_status(int program_status);
  void wait_until_finalized();
  RuntimeOptions options_;
  StackTrie stacks_;
  ThreadRegistry threads_;
  HeapRegistry heap_;
  ThreadStatePool state_pool_;
  Reporter reporter_;
  std::unique_ptr<Checker> checker_;
  // finalize() runs once: the kernel id of the thread running it (0 before),
  // whether it has ended, and whether the recording failed (the status).
  std::atomic<pid_t> finalizer_{0};
  std::atomic<bool> finalized_{false};
  std::atomic<bool> record_failed_{false};
};

// The runtime, started on first use; nullptr only while it is starting on
// this very thread.
Runtime* runtime();
// The runtime if it has started, else nullptr (never starts it).
Runtime* runtime_if_started();

// The calling thread's state when its events are to be traced; nullptr
// inside the runtime, on a thread being torn down, or (for the _if_started
// variant) before start-up.
RACEACCEL_SHARED_WITH_PROGRAM ThreadState* attach_slow(bool may_start);
inline ThreadState* traced_thread() {
  if (RACEACCEL_UNLIKELY(t_in_runtime)) return nullptr;
  ThreadState* ts = t_thread;
  return RACEACCEL_LIKELY(ts != nullptr) ? ts : attach_slow(true);
}
inline ThreadState* traced_thread_if_started() {
  if (RACEACCEL_UNLIKELY(t_in_runtime)) return nullptr;
  ThreadState* ts = t_thread;
  return RACEACCEL_LIKELY(ts != nullptr) ? ts : attach_slow(false);
}

// The status main() returned or exit() was called with (0 when unknown).
void note_program_status(int status);
// Ends the process at once with status (the system call: the runtime's own
// exits must not run the _exit interceptor, which reports).
[[noreturn]] void exit_process(int status);
// The runtime's at_quick_exit handler (intercept_process.cpp): reports and
// exits with quick_exit's status.
[[noreturn]] void finish_at_quick_exit();
// __tsan_func_entry's slow path (tsan_call_stack.cpp): the call-site trie's
// child of ts->node at pc, which the thread's cache entry c did not hold
// (c then holds it), or ts->node itself in a signal handler that
// interrupted the runtime (possibly inside the trie's lock).
RACEACCEL_NOINLINE RACEACCEL_SHARED_WITH_PROGRAM uint32_t enter_uncached_call_site(ThreadState* ts, uint64_t pc,
                                                                                   ThreadState::TrieCacheEntry& c);
// backend=verilator|xrt: opens the device (after static initialization);
// a failure ends the process with the backend's message and status.
void open_pending_device();

// Convenience wrappers that enter the runtime scope.
void emit_event(ThreadState* ts, const Event& e);
// Before a blocking lock operation on object: its lock-table slot starts
// loading while the real operation runs (a program with many locks, e.g. a
// lock per node, would otherwise miss in the cache at every acquire).
void prefetch_lock(const volatile void* object);
inline void emit_sync(ThreadState* ts, Op op, uint64_t object) { emit_event(ts, Event::sync(op, ts->tid, object)); }

// The id of a program object (a lock, a condition variable, an annotated
// address) in events: its address.
inline uint64_t id_of(const volatile void* object) { return reinterpret_cast<uint64_t>(object); }
// Synchronization on a program object by the calling thread, if it is
// traced: the interceptors and the annotations alike. Acquires (lock, wait,
// join, AnnotateHappensAfter) are emitted after the real operation
// succeeded, releases before it, so the stream orders every release before
// the acquire that observes it; the two names say which at each call. op
// says which kind (shared, exclusive). Nothing inside AnnotateIgnoreSync.
inline void sync_on(const volatile void* object, Op op) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_sync == 0) emit_sync(ts, op, id_of(object));
}
inline void acquire(const volatile void* object, Op op = Op::Acquire) { sync_on(object, op); }
inline void release(const volatile void* object, Op op = Op::Release) { sync_on(object, op); }
// A lock at object (size bytes) is destroyed: its clocks start over, so a
// lock made again in the same memory has no history (ThreadSanitizer resets
// a mutex at destroy). The memory keeps its history (the destroy's own write
// is recorded before).
inline void destroyed(const volatile void* object, uint64_t size) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_sync == 0)
    emit_event(ts, Event::range(Op::Destroy, ts->tid, id_of(object), size));
}

// Hot path: one buffered read/write/alloc. Sizes above 2^24 are split.
void append_slow(ThreadState* ts, uint64_t addr, uint64_t size, AccessKind kind, uint64_t pc);
// Sizes one entry cannot carry: none, or more than 2^24 bytes.
inline bool needs_split(uint64_t size) { return size > (1u << 24) || size == 0; }
// One entry; its size must not need splitting.
// The append is runtime code: a signal handler arriving in it would append
// to this same buffer, so it is deferred until the append is done.
// Entries that are not plain reads and writes (Alloc, AllocWrite,
// FreeWrite) end every open run: no run may grow across them.
inline uint32_t push_entry(ThreadState* ts, uint64_t addr, uint32_t size_kind, uint32_t length, uint64_t pc,
                           uint32_t lead = 0) {
  uint32_t n = ts->count.load(std::memory_order_relaxed);
  if (RACEACCEL_UNLIKELY(n == kBufferCapacity)) {
    runtime_if_started()->checker().drain(ts);
    n = 0;
  }
  ts->buffer[n] = {addr, pc, ts->node, size_kind, length, lead};
  ts->count.store(n + 1, std::memory_order_release);
  return n;
}
inline void append_entry(ThreadState* ts, uint64_t addr, uint32_t size_kind, uint64_t pc) {
  RuntimeScope scope;
  const uint32_t n = push_entry(ts, addr, size_kind, unpack_size(size_kind), pc);
  const AccessKind kind = unpack_kind(size_kind & ~kRecordOnly);
  if (kind != AccessKind::Read && kind != AccessKind::Write) ts->end_open_runs(n + 1);
}
// An atomic load decided without its clock work (tsan_atomics.cpp, "Loads
// of a clock the thread holds"): buffered as an Atomic entry, checked at the
// next drain as the atomic read it is; `lead` carries its memory order (an
// Atomic entry is never part of a run). It ends every open run. The caller
// holds a RuntimeScope (from before its load).
inline void append_atomic_load(ThreadState* ts, uint64_t addr, uint32_t size, MemoryOrder order, uint64_t pc) {
  const uint32_t n =
      push_entry(ts, addr, pack_size_kind(size, AccessKind::Atomic), size, pc, static_cast<uint32_t>(order));
  ts->end_open_runs(n + 1);
}
// Coalescing (docs/runtime.md, "Coalescing"): whether run e may take the
// next access, made at pc, whose first `lead` bytes were covered already.
// One pc (and lead) is the common case; a pattern run (several pcs in
// turn) checks the pcs and offsets its phase expects for the access's
// units. The first kMaxRunPeriod units (or a mismatch) take the slow path.
bool extend_run_pattern(ThreadState* ts, BufferedEvent& e, uint64_t pc, uint32_t lead);
RACEACCEL_ALWAYS_INLINE bool run_takes(ThreadState* ts, BufferedEvent& e, uint64_t pc, uint32_t lead) {
  if (RACEACCEL_LIKELY(e.pc == pc && e.lead == lead)) return true;
  if ((e.pc & kPatternPc) != 0) {
    RunPattern& p = ts->patterns[e.pc & (kPatternSlots - 1)];
    const uint32_t size = unpack_size(e.size_kind);
    const uint32_t unit = pattern_unit(size);
    if (RACEACCEL_LIKELY(p.units >= kMaxRunPeriod) && whole_units(size, lead)) {
      uint32_t phase = p.phase;
      uint32_t units = 0;
      bool expected = true;
      for (uint32_t offset = lead; offset < size; offset += unit, ++units) {
        expected &= p.pcs[phase] == pc && p.offsets[phase] == offset;
        phase = phase + 1 == p.period ? 0 : phase + 1;
      }
      if (RACEACCEL_LIKELY(expected)) {
        p.phase = phase;
        p.units += units;
        return true;
      }
      return false;  // past the literal prefix the period is fixed
    }
  }
  return extend_run_pattern(ts, e, pc, lead);
}
// A plain read or write: extends the open run that ends where the access
// starts (coalescing, issue 10 item 3: a loop over an array becomes one
// range check, an unrolled or vectorized loop too), else appends a new
// entry. Exact: the accesses a run holds are the thread's, of one size and
// kind, in one sync-free region (the buffer is drained at every
// synchronization event), with no Alloc between them, and within a region
// any order of the thread's own accesses gives the same racy bytes; the
// run's pcs are kept unit by unit (RunPattern), so reports name the very
// access (docs/runtime.md, "Coalescing"). lead: the access's first lead
// bytes are covered in the region already (covered_prefix); only the rest
// is checked, and only its rest must be contiguous with the run's.
// Extends the open run that ends at addr + lead with the access, its first
// lead bytes left out; returns the run's buffer index, kNoRun if there is
// none that may take it.
inline constexpr uint32_t kNoRun = ~uint32_t{0};
RACEACCEL_ALWAYS_INLINE uint32_t extend_run(ThreadState* ts, uint64_t addr, uint32_t size_kind, uint64_t pc,
                                            uint32_t lead) {
  const uint64_t start = addr + lead;
  const uint32_t unit = unpack_size(size_kind) - lead;
  const uint32_t count = ts->count.load(std::memory_order_relaxed);
  for (const uint32_t run : ts->runs) {
    if (run < ts->merge_floor || run >= count) continue;
    BufferedEvent& e = ts->buffer[run];
    if (e.addr + e.length != start) continue;
    if (e.size_kind != size_kind || e.node != ts->node || e.length > kMaxRunLength - unit ||
        !run_takes(ts, e, pc, lead))
      return kNoRun;
    e.length += unit;
    return run;
  }
  return kNoRun;
}
// The common case of coalescing, tried before the search of extend_run:
// the access continues `run`, one of the two runs the thread last started
// or extended (a loop's streams of accesses: a stencil's loads and its
// stores). Those runs are open runs (runs[]) and are tested as extend_run
// tests them, so this decides nothing extend_run would not; it only spares
// the search and the call.
RACEACCEL_ALWAYS_INLINE bool extend_recent_run(ThreadState* ts, uint32_t run, uint64_t addr, uint32_t size_kind,
                                               uint64_t pc, uint32_t lead) {
  if (run < ts->merge_floor || run >= ts->count.load(std::memory_order_relaxed)) return false;
  BufferedEvent& e = ts->buffer[run];
  const uint32_t unit = unpack_size(size_kind) - lead;
  if (e.addr + e.length != addr + lead || e.size_kind != size_kind || e.node != ts->node ||
      e.length > kMaxRunLength - unit || !run_takes(ts, e, pc, lead))
    return false;
  e.length += unit;
  return true;
}

// Inlined into its one caller, record_unfiltered (one call on the slow path,
// not two). Returns the open run it extended (kNoRun: none; it started a
// run, or none).
RACEACCEL_ALWAYS_INLINE uint32_t append_plain(ThreadState* ts, uint64_t addr, uint32_t size_kind, uint64_t pc,
                                              uint32_t lead = 0) {
  RuntimeScope scope;
  const uint32_t size = unpack_size(size_kind);
  if (RACEACCEL_LIKELY(ts->coalesce) && (size_kind & kRecordOnly) == 0) {
    // An aligned 16-byte access whose first half is the end of an open run
    // of its size and kind: that half is covered (the run checks it), as if
    // the region filter had said so (its table may have forgotten it).
    // Recording: each access a run absorbs follows as a record-only entry
    // naming the run (lead = its index + 1), recorded right after it
    // (Checker::drain_locked); so it must not land in the next buffer: with
    // the buffer full the access starts a new entry after the drain.
    uint32_t run = kNoRun;
    if (RACEACCEL_LIKELY(!ts->record_filtered) || ts->count.load(std::memory_order_relaxed) < kBufferCapacity) {
      run = extend_run(ts, addr, size_kind, pc, lead);
      if (run == kNoRun && lead == 0 && size == 16 && (addr & 7) == 0) run = extend_run(ts, addr, size_kind, pc, 8);
    }
    if (run != kNoRun) {
      ts->note_recent_run(run);
      ts->count_absorbed();
      if (RACEACCEL_UNLIKELY(ts->record_filtered)) push_entry(ts, addr, size_kind | kRecordOnly, size, pc, run + 1);
      return run;
    }
    const uint32_t started = push_entry(ts, addr + lead, size_kind, size - lead, pc, lead);
    ts->runs[ts->next_run++ % kRunSlots] = started;
    ts->note_recent_run(started);
    return kNoRun;
  }
  // Without coalescing the access is checked whole (lead: its bytes are
  // checked again, which changes no verdict).
  push_entry(ts, addr, size_kind, size, pc);
  return kNoRun;
}
inline void append_access(ThreadState* ts, uint64_t addr, uint64_t size, AccessKind kind, uint64_t pc) {
  if (RACEACCEL_UNLIKELY(needs_split(size))) return append_slow(ts, addr, size, kind, pc);
  append_entry(ts, addr, pack_size_kind(static_cast<uint32_t>(size), kind), pc);
}

// ---- the sync-free region filter (region_filter.hpp) ----------------------
// Which of line l's bytes `mask` were already accessed in the current
// region (a read being covered by reads and writes, a write by writes); all
// of `mask` is recorded as accessed now (the caller checks what was not
// covered).
RACEACCEL_ALWAYS_INLINE uint64_t covered_in_line(uint64_t l, uint64_t mask, bool write) {
  RegionEntry* e = &t_region.table[l & t_region.mask];
  const uint64_t generation = t_region.generation;
  if (RACEACCEL_LIKELY(e->line == l && e->generation == generation)) {
    const uint64_t covered = (write ? e->written : e->accessed) & mask;
    if (RACEACCEL_LIKELY(covered == mask)) return covered;
    if (write) e->written |= mask;
    e->accessed |= mask;
    return covered;
  }
  // A line new to the region (or evicted from its slot). The move to the
  // whole table, once the count runs out, is left to record_unfiltered,
  // which every access with a new line reaches: a call here would make the
  // inline fast path save registers (runtime.cpp, record_unfiltered).
  --t_region.young_left;
  e->line = l;
  e->generation = generation;
  e->written = write ? mask : 0;
  e->accessed = mask;
  return 0;
}
// Whether the whole access (up to kMaxFilteredRange bytes, over more lines
// than two) is covered; every line is tested and marked.
RACEACCEL_NOINLINE bool seen_in_region_range(uint64_t addr, uint64_t size, bool write);

// The covered prefix of an access within one line, from the bits of its
// bytes `seen` in the region (covered_in_line): all of it (size) when the
// access is covered (then it is dropped), the first half of an aligned
// 16-byte access when just it is (only the rest is checked: a vectorized
// stencil's overlapping loads; the unit of pattern runs, thread_state.hpp),
// else 0: other partial covers are not left out.
RACEACCEL_ALWAYS_INLINE uint64_t covered_in_one_line(uint64_t seen, uint64_t mask, uint64_t addr, uint64_t size) {
  if (RACEACCEL_LIKELY(seen == mask)) return size;
  const uint64_t first_half = line_mask(addr & 63, 8);
  return size == 16 && (addr & 7) == 0 && (seen & first_half) == first_half ? 8 : 0;
}

// How many leading bytes of the access are already covered in the region
// (covered_in_one_line, and for an access over two lines the same of both).
// A Free or an allocation since the thread last looked ends the region
// first (the hazard of region_filter.hpp).
RACEACCEL_ALWAYS_INLINE uint64_t covered_prefix(ThreadState* ts, uint64_t addr, uint64_t size, bool write) {
  const uint64_t epoch = g_forget_epoch.value.load(std::memory_order_seq_cst);
  if (RACEACCEL_UNLIKELY(epoch != ts->forget_epoch_seen)) {
    ts->forget_epoch_seen = epoch;
    ts->new_region();
  }
  const uint64_t offset = addr & 63;
  const uint64_t l = addr >> kRegionLineShift;
  uint64_t covered;
  if (RACEACCEL_LIKELY(offset + size <= 64)) {
    const uint64_t mask = line_mask(offset, size);
    covered = covered_in_one_line(covered_in_line(l, mask, write), mask, addr, size);
  } else if (size <= 64) {
    // Both lines are tested (and marked), whatever the first says.
    const uint64_t first_mask = line_mask(offset, 64 - offset);
    const uint64_t second_mask = line_mask(0, offset + size - 64);
    const uint64_t first = covered_in_line(l, first_mask, write);
    const bool second = covered_in_line(l + 1, second_mask, write) == second_mask;
    covered = first == first_mask && second ? size : 0;
    if (covered == 0 && size == 16 && (addr & 7) == 0 && first == first_mask) covered = 8;  // offset 56: 8 bytes each
  } else {
    covered = seen_in_region_range(addr, size, write) ? size : 0;
  }
  count_decided(covered == size);
  return covered;
}

// Extends one of the two armed streams (StreamTail, thread_state.hpp) with
// an access whose first `lead` bytes the region already covers, as
// extend_recent_run would extend that run; false: the slow path decides.
// Exact as coalescing is (append_plain): the run is open (a drain, an entry
// that ends the open runs and a new region disarm it), the access continues
// it where it ends, with the run's size, kind and call stack, at the pc and
// lead its pattern expects at this phase for all the access's units
// (arm_stream precomputed that per phase), and the run stays within
// kMaxRunLength. Runs with t_in_runtime set, as the slow path does, so that a
// signal handler (which may extend, drain or re-arm the stream) cannot run
// between the test and the update; a signal deferred meanwhile runs after.
RACEACCEL_ALWAYS_INLINE bool extend_armed(StreamTail& s, uint64_t start, uint32_t size_kind, uint64_t pc, uint64_t lead,
                                          uint64_t unit) {
  const StreamExpect& x = s.expect[s.phase];
  if (!(s.end == start && x.pc == pc && x.lead == lead && s.size_kind == size_kind && s.node == t_thread->node &&
        s.limit - start >= unit))
    return false;
  *s.length += static_cast<uint32_t>(unit);
  s.end = start + unit;
  s.phase = x.next;
  *s.pattern_phase = x.next;
  ++t_region.streamed;
  return true;
}
// Whether the access extends a stream: 1 (extended), 0 (not), with bit 1
// set when a signal was deferred meanwhile (its handler runs in
// stream_signals_deferred, a tail call of the fast path, which saves no
// register for it).
RACEACCEL_ALWAYS_INLINE uint32_t extend_stream(uint64_t start, uint32_t size, bool write, uint64_t pc, uint64_t lead) {
  t_in_runtime = kRuntimeCode;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const uint32_t size_kind = pack_size_kind(size, write ? AccessKind::Write : AccessKind::Read);
  const uint64_t unit = size - lead;
  // Both: a loop that reads and writes each element has a read and a write
  // run that end at the same byte.
  const bool extended =
      t_region.young_left > 0 && (extend_armed(t_region.streams[0], start, size_kind, pc, lead, unit) ||
                                  extend_armed(t_region.streams[1], start, size_kind, pc, lead, unit));
  std::atomic_signal_fence(std::memory_order_seq_cst);
  t_in_runtime = 0;
  // The flag is read after the store: a signal between them runs at once.
  std::atomic_signal_fence(std::memory_order_seq_cst);
  return (extended ? 1u : 0u) | (t_signals_deferred ? 2u : 0u);
}

// Arms a stream slot for open run `run` (the one already holding it, else
// the one armed longer ago): after the slow path extended it.
RACEACCEL_NOINLINE void arm_stream(ThreadState* ts, uint32_t run);

// The slow path of record_access: the access is checked (buffered), but
// for its first `covered` bytes; all of them covered: only recorded.
RACEACCEL_NOINLINE RACEACCEL_SHARED_WITH_PROGRAM void record_unfiltered(ThreadState* ts, uint64_t addr, uint64_t size,
                                                                        bool write, uint64_t pc, uint64_t covered);
// After extend_stream deferred a signal: the access not extended,
// record_unfiltered (whose RuntimeScope runs the handler as it ends), else
// the handler. Either way the handler runs after the access is buffered,
// as for a signal deferred in record_unfiltered.
RACEACCEL_NOINLINE RACEACCEL_SHARED_WITH_PROGRAM void stream_signals_deferred(bool extended, uint64_t addr,
                                                                              uint64_t size, bool write, uint64_t pc,
                                                                              uint64_t covered);

// record_access for a thread in the runtime or not yet known (a signal
// handler, start-up): out of line, so that the fast path calls nothing but
// in tail position.
RACEACCEL_NOINLINE RACEACCEL_SHARED_WITH_PROGRAM void record_access_outside(uint64_t addr, uint64_t size, bool write,
                                                                            uint64_t pc);

// Everything record_access's inline test does not decide: the ignore
// annotations, region_filter=0, recording, ranges, accesses over two lines,
// bytes not yet covered. Sets t_region.fast_epoch again (thread_state.hpp).
RACEACCEL_NOINLINE RACEACCEL_SHARED_WITH_PROGRAM void record_access_full(ThreadState* ts, uint64_t addr, uint64_t size,
                                                                         bool write, uint64_t pc);

// Reads and writes by the program, honouring the ignore annotations. The
// fast path: an access its thread already made in the current sync-free
// region returns here, without a buffer entry or a lock. Its one test of
// t_region.fast_epoch stands for all the conditions record_access_full tests
// (no ignore annotation, the region filter on, not recording, no Free or
// allocation since the region began), so a covered access costs a line
// look-up and three compares; one not covered is marked and buffered
// (record_unfiltered) with its size still a constant; anything else is
// record_access_full. Both are tail calls: the fast path saves no register.
RACEACCEL_ALWAYS_INLINE void record_access(uint64_t addr, uint64_t size, bool write, uint64_t pc) {
  const uint64_t offset = addr & 63;
  // size - 1 < 64 - offset: 0 < size and the access within one line. A
  // thread not attached (t_thread null) has kFastPathOff as its epoch.
  if (RACEACCEL_LIKELY(g_forget_epoch.value.load(std::memory_order_seq_cst) == t_region.fast_epoch &&
                       size - 1 < 64 - offset && t_in_runtime == 0)) {
    const uint64_t mask = line_mask(offset, size);
    const uint64_t covered =
        covered_in_one_line(covered_in_line(addr >> kRegionLineShift, mask, write), mask, addr, size);
    if (RACEACCEL_LIKELY(covered == size)) {
      count_decided(1);
      return;
    }
    // An access that continues an armed stream where it ends (extend_stream).
    if (const uint64_t start = addr + covered;
        RACEACCEL_UNLIKELY(t_region.streams[0].end == start || t_region.streams[1].end == start)) {
      const uint32_t streamed = extend_stream(start, static_cast<uint32_t>(size), write, pc, covered);
      if (RACEACCEL_UNLIKELY(streamed & 2))
        return stream_signals_deferred(streamed & 1, addr, size, write, pc, covered);
      if (RACEACCEL_LIKELY(streamed != 0)) return;
    }
    return record_unfiltered(t_thread, addr, size, write, pc, covered);
  }
  ThreadState* ts = t_thread;
  if (RACEACCEL_UNLIKELY(ts == nullptr || t_in_runtime)) return record_access_outside(addr, size, write, pc);
  return record_access_full(ts, addr, size, write, pc);
}

}  // namespace raceaccel::rt
