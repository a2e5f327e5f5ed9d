// The fast model's cycle estimate: what rac_kernel's busy cycles (ap_start
// taken to ap_done, stat_busy_cycles) would be for the batch the software
// model just ran, at a fixed memory latency and without bus back-pressure.
//
// Cycle-approximate, not cycle-accurate: it counts what the RTL's timing is
// made of (docs/hardware.md, "The fast model's cycle estimate") and keeps
// one clock, `now`, that the events below advance:
//  - the launch: argument check and start, the command reader's first beat
//    one memory latency later; with clear_state the cache's init sweep
//    (Sets cycles) and the decoder's zeroing of rows and sync objects;
//  - one cycle per command word (the decoder's rate; the engine takes one
//    command per cycle on hits, so set-row and load-object data words cost
//    their own cycles);
//  - an S2 wait for back-to-back lookups of one line or pool entry;
//  - a miss: the drain of S2 and S3, a read-clock spill of the victim, the
//    write-back of a dirty victim (bucket hash, bucket read — after the B
//    response of the previous posted bucket write —, then a store or a spill
//    record with the filter write, posted, or a spill record only, or
//    nothing) and the fill: from the miss-ahead read when there is one
//    (its bucket read started when the command entered the command FIFO,
//    CmdFifoDepth commands before the engine took it, or when an entry was
//    free, PrefetchEntries misses back; not when a write-back wrote its
//    bucket since), else a bucket read of its own;
//  - record writers that take one record per beats + 2 cycles, and an S3
//    that waits while the engine's record register is full;
//  - the end: the pipeline drains, and the last record's B response.
// The constants were measured against the Verilated kernel
// (tests/kernel/kernel_model_agreement_test.cpp; ±5 % before the miss-ahead
// path, whose terms below are set from the RTL's pipeline and not fitted:
// −36 % … +13 % on that grid, docs/hardware.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <unordered_map>

namespace raceaccel::driver {

struct KernelTimingShape {
  unsigned sets = 0, slots = 8, objects = 0, bucket_ways = 4;
  unsigned esc_beats = 2;  // 64-byte beats per escalation record
  double latency = 1;      // memory latency in cycles (the mean, when it varies)
};

class KernelCycles {
 public:
  // How a write-back ends in the meta port.
  enum class WriteBack { Store, SpillAndFilter, Spill, Nothing };

  explicit KernelCycles(const KernelTimingShape& shape = {}) : shape_(shape) {}

  void begin_batch(bool clear) {
    now_ = kLaunch + shape_.latency;
    if (clear) now_ += std::max<double>(shape_.sets, shape_.slots + shape_.objects) + kClear;
    esc_ = race_ = Writer{now_};
    last_record_ = -1;
    prev_lookup_ = false;
    words_ = 0;
    first_word_ = now_;
    takes_.clear();
    fills_.clear();
    bucket_written_.clear();  // the meta port drops its entries at a batch start
    b_due_ = 0;
    last_alloc_ = 0;
  }
  // One command and its data words.
  // (lookup: the command looks its line up; SoftwareKernel::time_lookup
  // then checks the S2 wait.)
  void command(unsigned words, bool lookup) {
    // When it entered the command FIFO: the decoder's rate from the first
    // word, or when the FIFO had room (the engine took the command
    // CmdFifoDepth commands back).
    double entered = first_word_ + static_cast<double>(words_);
    if (takes_.size() == kCmdFifoDepth) entered = std::max(entered, takes_.front());
    if (takes_.size() == kCmdFifoDepth) takes_.pop_front();
    takes_.push_back(now_);
    entered_ = entered;
    words_ += words;
    now_ += words;
    if (!lookup) prev_lookup_ = false;
  }
  // A lookup right behind another lookup of the same line or pool entry.
  void hazard() { now_ += 1; }
  // A miss of the last command; wb_bucket: the dirty victim's bucket,
  // fill_bucket: the missing granule's.
  // leaving: the victim's granule + 1 (0: a free way).
  void miss(bool dirty, WriteBack how, uint64_t wb_bucket = 0, uint64_t fill_bucket = 0, uint64_t granule = 0,
            uint64_t leaving = 0) {
    // Its miss-ahead read: hinted after the shadow lookup once it entered
    // the FIFO — no sooner than the hint queue had room (the decoder waits
    // for it: kHintsAhead misses back were answered) —, hashed one hint at
    // a time, given an entry once one was free (PrefetchEntries misses back).
    double hinted = entered_ + kHint;
    if (fills_.size() >= kHintsAhead) hinted = std::max(hinted, fills_[fills_.size() - kHintsAhead]);
    double alloc = std::max(hinted, last_alloc_ + kAlloc) + kAlloc;
    if (fills_.size() >= kPrefetchEntries) alloc = std::max(alloc, fills_[fills_.size() - kPrefetchEntries]);
    now_ += kDrain;
    if (dirty) {
      now_ = std::max(now_ + kWbRequest, b_due_ + kWbAfterB) + bucket_read();
      switch (how) {
        case WriteBack::Store: now_ += kStorePosted; break;
        case WriteBack::SpillAndFilter: now_ += kSpillAndFilterPosted; break;
        case WriteBack::Spill: now_ += kSpill; break;
        case WriteBack::Nothing: break;
      }
      if (how == WriteBack::Store || how == WriteBack::SpillAndFilter) {
        b_due_ = now_ + shape_.latency;
        bucket_written_[wb_bucket] = now_;
      }
    }
    const auto written = bucket_written_.find(fill_bucket);
    // No hint when the shadow tags still held the granule then (evicted
    // since), and no entry yet when the request comes before its hash.
    const auto evicted = evicted_.find(granule);
    const auto installed = installed_.find(granule);
    const bool was_resident = evicted != evicted_.end() && evicted->second > hinted - kHint &&
                              installed != installed_.end() && installed->second <= hinted - kHint;
    const bool overtaken =
        (written != bucket_written_.end() && written->second >= hinted) || was_resident || alloc > now_;
    if (!was_resident) last_alloc_ = alloc - kAlloc;
    if (!overtaken) {
      const double ready = alloc + kHash + bucket_read();
      now_ = std::max(now_ + kFillFromEntry, ready + kFillFromEntry);
    } else {
      now_ = std::max(now_ + kFill, b_due_ + kFillAfterB) + bucket_read();
    }
    if (fills_.size() == kHintsAhead) fills_.pop_front();
    fills_.push_back(now_);
    if (leaving != 0) evicted_[leaving - 1] = now_;
    installed_[granule] = now_;
  }
  void esc_record() { record(esc_, shape_.esc_beats); }
  void race_record() { record(race_, 1); }
  // The batch's busy cycles.
  uint64_t end_batch() {
    double end = now_ + kTail;
    if (last_record_ >= 0) end = std::max(end, last_record_ + shape_.latency + kTail);
    return static_cast<uint64_t>(end + 0.5);
  }

  // Per-lookup bookkeeping of the previous lookup (for hazard()).
  bool prev_lookup_ = false;
  uint64_t prev_granule_ = 0;
  size_t prev_pool_entry_ = 0;
  bool prev_may_write_pool_ = false;

 private:
  // Cycles outside the memory latency and the bucket's beats. The terms
  // follow the RTL (rac_kernel's launch FSM, rac_check_engine's S1 miss
  // states, rac_meta_port's states: request, 4 hash rounds, AR, the
  // beats, the decision, the write, done); the values were fitted by least
  // squares to the Verilated kernel's busy cycles on the validation grid
  // (tests/kernel/kernel_model_agreement_test.cpp: three shapes, latencies
  // 1, 8 and 32; −0.3 % … +1.7 % there).
  static constexpr double kLaunch = 13;  // ap_start taken to the reader's request, and the finish states
  static constexpr double kClear = 3;    // the clear and its wait state
  static constexpr double kDrain = 2;    // S2 and S3 empty before a miss starts
  static constexpr double kFill = 10.2;  // request, hash, AR, decision, done, install, the command again
  static constexpr double kWbRequest = 7;
  static constexpr double kStorePosted = 3;           // AW and two W beats (the B response is waited for later)
  static constexpr double kSpillAndFilterPosted = 0;  // the spill record, then one filter beat
  static constexpr double kSpill = -2.3;              // the spill record only (the filter bit was set)
  static constexpr double kTail = 4;                  // pipeline drain
  // Miss-ahead (rac_kernel's CmdFifoDepth and PrefetchEntries, rac_miss_ahead's
  // shadow lookup, rac_meta_port's hint queue and hasher).
  static constexpr size_t kCmdFifoDepth = 128;
  static constexpr size_t kPrefetchEntries = 8;
  static constexpr size_t kHintsAhead = kPrefetchEntries + 13;  // entries and the hint queue's room
  static constexpr double kHint = 3;                            // shadow lookup, hint queue
  static constexpr double kAlloc = 6;                           // the hasher's rounds (one hint at a time)
  static constexpr double kHash = 2;                            // the entry's AR; the answer settles
  static constexpr double kFillFromEntry = 3;                   // request, answer, install, the command again
  static constexpr double kWbAfterB = 5;                        // a read waiting for a posted write's B response
  static constexpr double kFillAfterB = 5;

  double bucket_read() const { return shape_.latency + 2.0 * shape_.bucket_ways; }
  // A record made now waits in the engine's record register until its
  // writer takes it. S3 finishes a command only when the register can take
  // a record (decided before the rules, whether or not the command makes
  // one), so the pipeline stands still until then. The writer's RTL takes
  // one record per beats + 1 cycles (its W beats, then hold_q clears); the
  // kernel's measured cycles fit beats + 2 better (the 200,000-event trace
  // of docs/hardware.md: −0.5 % instead of −2.6 %), so that is the period.
  struct Writer {
    double free = 0;  // when the writer can take the next record
  };
  void record(Writer& w, unsigned beats) {
    const double take = std::max(now_ + 1, w.free);
    w.free = take + beats + 2;
    now_ = std::max(now_, take - 1);
    last_record_ = std::max(last_record_, w.free);
  }

  KernelTimingShape shape_;
  double now_ = 0, last_record_ = -1;
  uint64_t words_ = 0;                                   // command words of the batch so far
  double first_word_ = 0;                                // when the decoder had the batch's first word
  double entered_ = 0;                                   // when the last command entered the command FIFO
  double b_due_ = 0;                                     // the last posted bucket write's B response
  std::deque<double> takes_;                             // when the engine took the last CmdFifoDepth commands
  std::deque<double> fills_;                             // when the last kHintsAhead fills were answered
  double last_alloc_ = 0;                                // when the hasher took the last hint
  std::unordered_map<uint64_t, double> bucket_written_;  // bucket -> its last write
  std::unordered_map<uint64_t, double> evicted_;         // granule -> when it last left the cache
  std::unordered_map<uint64_t, double> installed_;       // granule -> when it was last filled
  Writer esc_, race_;
};

}  // namespace raceaccel::driver
