// The event path: one detector behind one lock, fed from per-thread buffers.
//
// A thread appends its plain accesses (and allocations) to its own buffer
// without locking. Before any synchronization event of that thread, and when
// the buffer is full, the buffer is drained into the detector under the
// checker lock, and the synchronization event follows under the same lock,
// ordered with the real operation's effect (acquire after the real lock
// returns, release before the real unlock, atomics performed inside the
// lock). The resulting stream respects each thread's program order and the
// real order of every synchronization, which is all happens-before needs
// (docs/runtime.md explains why the verdicts are exact).
#pragma once

#include <array>
#include <fstream>
#include <memory>
#include <vector>

#include "core/symbols.hpp"
#include "detect/detector.hpp"
#include "runtime/call_stacks.hpp"
#include "runtime/internal_mutex.hpp"
#include "runtime/reporter.hpp"
#include "runtime/thread_state.hpp"
#include "trace/binary_format.hpp"

namespace raceaccel::rt {

struct CheckerStats {
  uint64_t events = 0;    // processed by the detector
  uint64_t accesses = 0;  // of which buffered reads/writes
  uint64_t filtered = 0;  // reads/writes decided by the sync-free region filter (never buffered)
  uint64_t drains = 0;    // buffer drains
  uint64_t races = 0;     // per-byte races found
  uint64_t sites = 0;     // access sites interned (pattern sites included)
};

class Checker {
 public:
  Checker(std::unique_ptr<Detector> detector, Reporter& reporter);
  ~Checker();

  // Records the stream to path; false (and why) if the file cannot be
  // created. The file is written from start_recording() on (main): no
  // iostream may be made while shared libraries are still being initialized
  // (that broke libstdc++'s locale set-up), so events before main wait in
  // memory until then.
  bool record_to(const std::string& path, std::string& error);
  void start_recording();

  void link(ThreadState* ts);
  // The thread is gone: its last accesses are checked, then it is forgotten.
  void unlink(ThreadState* ts);
  void drain(ThreadState* ts);
  // Drains ts, then applies e; e ends the thread's sync-free region.
  void emit(ThreadState* ts, const Event& e);
  // Drains ts, runs op() (the real operation; it returns {result, event}) and
  // applies its event, all under the lock: the detector sees atomic
  // operations on a location in the order they took effect.
  template <typename Op>
  auto emit_with(ThreadState* ts, Op&& op) {
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
  auto record_repeat_or_check(ThreadState* ts, Decide&& decide) {
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

  // The site id of an access by ts at pc (its current call stack); only with
  // the lock held (emit_with's operation).
  uint64_t site_locked(ThreadState* ts, uint64_t pc, uint32_t size_kind) {
    return site_of(ts, {0, pc, ts->node, size_kind, 0});
  }

  // Runs f() with the checker's lock held.
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

  // fork(): the parent holds the lock across the real fork; the child then
  // drains what the other threads had buffered, joins them (their work
  // happened before the fork in the child's memory) and forgets them.
  void lock_for_fork() { mu_.lock(); }
  void unlock_after_fork() { mu_.unlock(); }
  void adopt_after_fork_child(ThreadState* self);

 private:
  void start_recording_locked();
  std::string finish_recording_locked();
  // halt_on_error after a report: finishes the recording and prints the
  // summary with the lock held (so no other thread can add to either), stops
  // checking, releases the lock and ends the process.
  [[noreturn]] void halt_locked();
  void drain_locked(ThreadState* ts, bool owner);
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
  uint64_t pattern_site_of(const ThreadState* ts, const BufferedEvent& b);
  uint64_t first_site_of(const BufferedEvent& b, uint64_t site);
  bool recording() const { return !record_path_.empty() || recorder_ != nullptr; }
  void report_fresh_races(const ThreadState* ts, uint32_t begin, uint32_t end, uint64_t first_index);

  InternalMutex mu_;
  std::unique_ptr<Detector> detector_;
  Reporter& reporter_;
  SiteDepot sites_;
  ThreadState* live_ = nullptr;
  uint64_t next_index_ = 0;
  size_t races_seen_ = 0;
  bool stopped_ = false;
  bool failed_ = false;
  bool keep_racy_bytes_ = false;
  std::vector<uint64_t> racy_bytes_;
  // While recording: per run of the buffer being drained, the record-only
  // entries of the accesses it absorbed (a list through absorbed_next_).
  static constexpr uint32_t kNoAbsorbed = ~uint32_t{0};
  std::array<uint32_t, kBufferCapacity> absorbed_head_;
  std::array<uint32_t, kBufferCapacity> absorbed_next_;
  CheckerStats stats_;
  std::unique_ptr<std::ofstream> record_file_;
  std::unique_ptr<BinaryWriter> recorder_;
  std::string record_target_;        // the record= file, for messages
  std::string record_path_;          // set while recording waits for main
  std::vector<Event> early_events_;  // events before main, for the recording
  SymbolTable no_symbols_;
  std::string record_error_;
};

}  // namespace raceaccel::rt
