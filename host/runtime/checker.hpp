// The event path: per-thread buffers drained into the detector.
//
// A thread appends its plain accesses (and allocations) to its own buffer
// without locking. Before any synchronization event of that thread, and when
// the buffer is full, the buffer is drained into the detector, and the
// synchronization event follows, ordered with the real operation's effect
// (acquire after the real lock returns, release before the real unlock,
// atomics performed inside the detector's critical section). The stream
// each location sees respects each thread's program order and the real
// order of every synchronization, which is all happens-before needs
// (docs/runtime.md explains why the verdicts are exact).
//
// Two ways to run it:
//  - serial: one detector (any backend) behind one lock, the checker lock,
//    which every drain and every synchronization event holds;
//  - parallel (software FastTrack, the default): ShardedFastTrack. A drain
//    holds only its thread's drain lock and the locks of the memory blocks
//    it checks, one at a time; a synchronization event holds only the lock
//    of the part of FastTrack's state it touches (the lock's stripe, the
//    atomic location's shard, or the global part for fork, join and
//    barriers). While recording (record=), every operation also holds the
//    checker lock, so the recording is the order of the checks.
#pragma once

#include <array>
#include <fstream>
#include <functional>
#include <memory>
#include <vector>

#include "core/symbols.hpp"
#include "detect/detector.hpp"
#include "runtime/call_stacks.hpp"
#include "runtime/internal_mutex.hpp"
#include "runtime/reporter.hpp"
#include "runtime/sharded_fasttrack.hpp"
#include "runtime/thread_state.hpp"
#include "trace/binary_format.hpp"

namespace raceaccel::rt {

struct CheckerStats {
  uint64_t events = 0;       // processed by the detector
  uint64_t accesses = 0;     // of which buffered reads/writes
  uint64_t filtered = 0;     // reads/writes decided by the sync-free region filter (never buffered)
  uint64_t absorbed = 0;     // reads/writes coalesced into an open run (no entry of their own)
  uint64_t streamed = 0;     // of which the callbacks added to an armed run themselves (extend_stream)
  uint64_t drains = 0;       // buffer drains
  uint64_t races = 0;        // per-byte races found
  uint64_t sites = 0;        // access sites interned (pattern sites included)
  uint64_t dropped = 0;      // reads/writes sample= left unchecked (sampling.hpp)
  uint32_t clock_slots = 0;  // FastTrack's thread clock slots (0: another detector)
};

class Sampler;

class Checker {
 public:
  // Serial: every event through `detector` under the checker lock.
  Checker(std::unique_ptr<Detector> detector, Reporter& reporter);
  // Parallel: software FastTrack, split (sharded_fasttrack.hpp).
  Checker(std::unique_ptr<ShardedFastTrack> parallel, Reporter& reporter);
  ~Checker();
  bool parallel() const { return parallel_ != nullptr; }
  // Parallel checking: see ShardedFastTrack::prefetch_lock.
  void prefetch_lock(uint64_t object) const {
    if (parallel_ != nullptr) parallel_->prefetch_lock(object);
  }
  // sample=: plain accesses the sampler drops are not checked (still
  // recorded). At start-up, before any thread drains.
  void sample_with(std::unique_ptr<Sampler> sampler);

  // Records the stream to path; false (and why) if the file cannot be
  // created. The file is written from start_recording() on (main): no
  // iostream may be made while shared libraries are still being initialized
  // (that broke libstdc++'s locale set-up), so events before main wait in
  // memory until then.
  bool record_to(const std::string& path, std::string& error);
  void start_recording();
  // What the recording ends with besides the events (the site table,
  // modules, threads: program_info.hpp), so that `raceaccel check` prints
  // the live reports; `describe` fills in all but the code sites, which are
  // the checker's. Set at start-up.
  void describe_program_with(std::function<void(ProgramInfo&)> describe) { describe_program_ = std::move(describe); }
  // How many events the recording holds so far (0 when not recording).
  uint64_t recorded_events() const { return recorded_events_.load(std::memory_order_relaxed); }
  const std::atomic<uint64_t>* recorded_events_counter() const { return &recorded_events_; }

  void link(ThreadState* ts);
  // The thread is gone: its last accesses are checked, then it is forgotten.
  void unlink(ThreadState* ts);
  void drain(ThreadState* ts);
  // Drains ts, then applies e; e ends the thread's sync-free region.
  void emit(ThreadState* ts, const Event& e);
  // Drains ts, runs op() (the real operation on the atomic location addr;
  // it returns {result, event}) and applies its event, all under one lock:
  // the detector sees atomic operations on a location in the order they
  // took effect.
  template <typename Op>
  auto emit_with(ThreadState* ts, uint64_t addr, Op&& op) {
    if (parallel()) {
      return at_atomic_location(ts, addr, [&](std::vector<Race>& found) {
        ts->new_region();
        auto [value, event] = op();
        atomic_locked(ts, event, found);
        return value;
      });
    }
    InternalLock lock(mu_);
    drain_locked(ts, true);
    ts->new_region();
    auto [result, event] = op();
    process_locked(event);
    return result;
  }

  // The repeated-load fast path while recording (tsan_atomics.cpp): under
  // the lock, so that the recording orders the load where it took effect,
  // decide() performs the load and says whether it repeats the thread's
  // previous one; a repeat is only recorded, anything else is checked as
  // usual. Returns decide()'s result.
  template <typename Decide>
  auto record_repeat_or_check(ThreadState* ts, uint64_t addr, Decide&& decide) {
    if (parallel()) {  // recording: at_atomic_location holds the checker lock too
      return at_atomic_location(ts, addr, [&](std::vector<Race>& found) {
        auto [value, repeat, event] = decide();
        if (repeat) {
          record_locked(event);
        } else {
          ts->new_region();
          atomic_locked(ts, event, found);
        }
        return value;
      });
    }
    InternalLock lock(mu_);
    drain_locked(ts, true);
    auto [result, repeat, event] = decide();
    if (repeat) {
      record_locked(event);
      ++next_index_;
    } else {
      ts->new_region();
      process_locked(event);
    }
    return result;
  }

  // Recording, a load of a clock the thread holds (tsan_atomics.cpp): under
  // the checker lock, which every operation takes while recording, decide()
  // loads the value and says whether the clock is still held; a held load
  // is recorded here, where it took effect, and the caller buffers its
  // check (the drain does not record Atomic entries again). Returns
  // decide()'s value and whether it was held.
  template <typename Decide>
  auto record_held_load(Decide&& decide) {
    InternalLock lock(mu_);
    auto [value, held, event] = decide();
    if (held) record_locked(event);
    return std::pair{value, held};
  }

  // The site id of an access by ts at pc (its current call stack); only
  // inside emit_with's operation.
  uint64_t site_locked(ThreadState* ts, uint64_t pc, uint32_t size_kind) {
    return site_of(ts, {0, pc, ts->node, size_kind, 0});
  }

  // Runs f() with the checker's lock held (a device backend's own calls).
  template <typename F>
  void with_lock(F&& f) {
    InternalLock lock(mu_);
    f();
  }

  // Exit: drains every thread's buffer (even of running threads), then
  // stops checking. Later events are dropped.
  void drain_all_and_stop();
  // finish() the recording, if any. Returns an error message or "".
  std::string finish_recording();
  CheckerStats stats();
  // verbosity=3: keep every racy byte, for racy_ranges() at exit (the
  // differential tests compare them with a detector's on the recording).
  void keep_racy_bytes() { keep_racy_bytes_ = true; }
  // The racy bytes found so far as sorted, merged [address, size) ranges.
  std::vector<std::pair<uint64_t, uint64_t>> racy_ranges();
  bool failed() const { return failed_; }

  // fork(): the parent holds every checker lock across the real fork; the
  // child then drains what the other threads had buffered, joins them (their
  // work happened before the fork in the child's memory) and forgets them.
  // It also joins `finished`, the threads that had finished but that no
  // join took (their work happened before the fork too).
  void lock_for_fork();
  void unlock_after_fork();
  void adopt_after_fork_child(ThreadState* self, const std::vector<ThreadId>& finished);

 private:
  // Takes the checker lock where the mode needs it for every operation:
  // serial checking, and parallel checking while recording.
  class Serialized {
   public:
    explicit Serialized(Checker& c) : mu_(c.serialized() ? &c.mu_ : nullptr) {
      if (mu_ != nullptr) mu_->lock();
    }
    ~Serialized() {
      if (mu_ != nullptr) mu_->unlock();
    }
    Serialized(const Serialized&) = delete;
    Serialized& operator=(const Serialized&) = delete;

   private:
    InternalMutex* mu_;
  };
  bool serialized() const { return !parallel() || exclusive_; }

  // Parallel, an atomic operation of ts on location addr: drains ts, then
  // runs step(found) (the real operation and its check) with addr's shard
  // locked, and reports the races step found; returns step's result.
  template <typename Step>
  auto at_atomic_location(ThreadState* ts, uint64_t addr, Step&& step) {
    Serialized serialized(*this);
    OwnerLockGuard drain_lock(ts->drain_mu);
    start_view(ts);
    std::vector<Race> found;
    auto result = [&] {
      // The drain's last shard stays locked: a ring's slots and its index
      // share a block, and the lock is not handed to another thread and
      // back in between.
      ShardedFastTrack::Cursor cursor(*parallel_);
      drain_locked(ts, true, &cursor);
      parallel_->lock_atomic(cursor, addr);
      return step(found);
    }();
    report_found(nullptr, 0, 0, found);
    return result;
  }
  // Parallel: makes ts's clock view if it has none yet (under its drain lock).
  void start_view(ThreadState* ts) {
    if (!ts->view.started()) parallel_->start(ts->tid, ts->view);
  }
  // Parallel: ts's atomic access e, with its location's lock held.
  void atomic_locked(ThreadState* ts, const Event& e, std::vector<Race>& found);
  // Parallel: ts's synchronization event (or Alloc/Free) e; not an atomic
  // access (at_atomic_location).
  void apply_parallel(ThreadState* ts, const Event& e);
  // Parallel: reports races of ts's drain [begin, end) (Race::event is the
  // buffer position), or with ts null, of an atomic access.
  void report_found(const ThreadState* ts, uint32_t begin, uint32_t end, std::vector<Race>& found);
  // Both: reports fresh races (under the report lock). Race r of the drain
  // of ts[begin, end) is at buffer position begin + (r.event - first_index).
  void report_races(const ThreadState* ts, uint32_t begin, uint32_t end, uint64_t first_index,
                    std::vector<Race>& fresh);
  // A failed check: stops checking with a message.
  void fail(const std::exception& err);
  void start_recording_locked();
  // report_locked: the caller holds report_mu_ (a halt), which writing the
  // code sites needs.
  std::string finish_recording_locked(bool report_locked = false);
  void write_program_info(bool report_locked);
  // halt_on_error after a report: finishes the recording and prints the
  // summary with the report lock held (so no other thread can add to either;
  // while recording, the checker lock is held too), stops checking, releases
  // those locks and ends the process.
  [[noreturn]] void halt_locked();
  // ts's buffered entries; serial: the checker lock is held; parallel:
  // ts's drain lock is held.
  // keep: parallel, the caller's cursor, left holding the last shard
  // drained (an atomic operation next often needs the same one).
  void drain_locked(ThreadState* ts, bool owner, ShardedFastTrack::Cursor* keep = nullptr);
  // Records ts's entry i (b, checked as e): a run of coalesced accesses is
  // recorded as its first access, then the accesses it absorbed, in program
  // order: the order the run was checked in (a report names the first
  // access of a racy byte, so the recording must not move the run's later
  // accesses after other accesses of the thread).
  void record_run(ThreadState* ts, const BufferedEvent& b, uint32_t i, const Event& e);
  // Checks e, then records it.
  void process_locked(const Event& e);
  // Checks e; false when checking has stopped or failed.
  bool check_locked(const Event& e);
  // Writes e to the recording (if any) without checking it.
  void record_locked(const Event& e);
  uint64_t site_of(ThreadState* ts, const BufferedEvent& b);
  Event access_event(ThreadState* ts, const BufferedEvent& b);
  static bool absorbed_by_run(const BufferedEvent& b, uint32_t begin, uint32_t i);
  void link_absorbed(const ThreadState* ts, uint32_t begin, uint32_t end);
  uint64_t pattern_site_of(ThreadState* ts, const BufferedEvent& b);
  uint64_t first_site_of(const BufferedEvent& b, uint64_t site);
  bool recording() const { return !record_path_.empty() || recorder_ != nullptr; }
  // Serial: reports the races the detector found since the last call.
  void report_fresh_races(const ThreadState* ts, uint32_t begin, uint32_t end, uint64_t first_index);

  // Lock order: mu_, live_mu_, a thread's drain_mu, then one of
  // ShardedFastTrack's locks (a shard's, a stripe's, its global lock),
  // report_mu_.
  InternalMutex mu_;
  InternalMutex live_mu_;                       // live_ (parallel; serial checking holds mu_)
  InternalMutex report_mu_;                     // sites_, the reporter, racy_bytes_, record_error_ of halts
  std::unique_ptr<Detector> detector_;          // serial
  std::unique_ptr<ShardedFastTrack> parallel_;  // parallel
  std::unique_ptr<Sampler> sampler_;            // sample=; null: every access is checked
  bool exclusive_ = false;                      // parallel, recording: every operation holds mu_ too
  Reporter& reporter_;
  SiteDepot sites_;
  ThreadState* live_ = nullptr;
  uint64_t next_index_ = 0;
  size_t races_seen_ = 0;
  std::atomic<bool> stopped_{false};
  std::atomic<bool> failed_{false};
  bool keep_racy_bytes_ = false;
  std::vector<uint64_t> racy_bytes_;
  // While recording: per run of the buffer being drained, the record-only
  // entries of the accesses it absorbed (a list through absorbed_next_).
  static constexpr uint32_t kNoAbsorbed = ~uint32_t{0};
  std::array<uint32_t, kBufferCapacity> absorbed_head_;
  std::array<uint32_t, kBufferCapacity> absorbed_next_;
  // Serial checking's, and what parallel checking counts rarely (races,
  // filtered accesses of the exit drain).
  struct Counters {
    std::atomic<uint64_t> events{0}, accesses{0}, filtered{0}, absorbed{0}, streamed{0}, drains{0}, races{0};
  };
  Counters stats_;
  // Parallel: the rest are counted by each thread (ThreadState::counts,
  // under its drain lock).
  ThreadState::Counts unlinked_counts_;  // of threads gone (live_mu_)
  std::unique_ptr<std::ofstream> record_file_;
  std::unique_ptr<BinaryWriter> recorder_;
  std::string record_target_;        // the record= file, for messages
  std::string record_path_;          // set while recording waits for main
  std::vector<Event> early_events_;  // events before main, for the recording
  SymbolTable no_symbols_;
  std::atomic<uint64_t> recorded_events_{0};
  std::function<void(ProgramInfo&)> describe_program_;
  std::string record_error_;
};

}  // namespace raceaccel::rt
