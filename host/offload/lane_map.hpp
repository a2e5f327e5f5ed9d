// Which engine lane (hardware slot) each thread uses, with slot recycling
// (docs/driver.md, "Slots and their recycling").
//
// The host keeps every thread's clock in dense thread indices (unbounded);
// the engine has `lanes` slots, and clocks there are rows of one clock per
// lane. A lane is held by a sequence of threads u_0, u_1, ...: a thread
// takes a lane whose holder u_old was joined, provided u_old's final clock
// is known to the new thread (u_old ≺ u_new). The new holder continues the
// lane's clock: from its local time start_k when it takes the lane, its
// local time c is lane clock base_k + (c - start_k), base_k one above the
// previous holder's last lane clock, so the lane reads as one sequential
// thread u_0; u_1; ... and every comparison the engine makes on it is the
// comparison DJIT+ makes on the two threads:
//   lane(C) = base_k + min(C[u_k], end_k) - start_k,
// k the latest holder C knows (C[u_k] >= start_k; knowing u_k implies
// knowing every earlier holder entirely, so the latest known one is found
// by binary search). end_k is the final local time of a holder that gave
// its lane away (none for the current holder): after its join it has no
// lane epochs beyond end_k.
//
// Exactness rules (argued in docs/driver.md):
//  - a thread takes a used lane when a fork creates it, or later, right
//    after one of its synchronization events, if its clock then knows the
//    previous holder's end. Nobody else knows its local time at that
//    moment (every transfer of a thread's clock — release, fork, join of
//    it, barrier entry, release store or fence — ticks it afterwards), so
//    whoever learns a local time >= start_k later learns a clock that
//    knows the previous holder's end;
//  - a lane is free once its holder was joined; if that holder acts again,
//    is forked again or joined again while it still holds the lane, the
//    lane is never recycled (its clock may have run past the join);
//  - a holder that lost its lane is slotless from then on (the host checks
//    its accesses).
//
// Clock width: a thread whose own lane clock would outgrow `max_clock` is
// evicted (slotless from then on; its lane is never given again), and rows
// saturate at max_clock. That is exact: every epoch on chip in a lane is at
// most max_clock (its holder was evicted before its clock got there), so
// min(v, max_clock) >= e exactly when v >= e. Rows stay closed under the
// engine's lane-wise max (joins) and its tick of the own lane.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/vector_clock.hpp"

namespace raceaccel::offload {

class LaneMap {
 public:
  static constexpr uint32_t kNoLane = UINT32_MAX;

  // recycle = false: lanes go to the first `lanes` threads, as before
  // recycling existed (tests compare both).
  explicit LaneMap(unsigned lanes, bool recycle = true, uint64_t max_clock = UINT64_MAX);

  // A thread seen for the first time. `fork_clock`: its clock, when a fork
  // created it (after the fork's join); nullptr otherwise (then it may only
  // take a lane no thread has used).
  void created(uint32_t thread, const VectorClock* fork_clock);
  // A thread without a lane, right after one of its synchronization events
  // (its clock is `clock`): takes a free lane whose holder's end it knows.
  // Returns whether it did.
  bool adopt(uint32_t thread, const VectorClock& clock);
  // A join of `thread`; `final_local` is its local time the joiner learned.
  void joined(uint32_t thread, uint64_t final_local);
  // `thread` acts (or is forked) after it was created.
  void acted(uint32_t thread) {
    if (thread < state_.size() && state_[thread] != State::Live) acted_after_join(thread);
  }

  uint32_t lane_of(uint32_t thread) const { return thread < lane_of_.size() ? lane_of_[thread] : kNoLane; }
  unsigned lanes() const { return static_cast<unsigned>(lanes_.size()); }
  // Lanes ever held: every row is 0 from here on (it only grows).
  unsigned used() const { return fresh_; }
  // Whether some lane is free for recycling (adopt() can succeed).
  bool any_free() const { return recycle_ && free_ > 0; }
  // The engine's row of clock `c`: one lane clock per lane (0: knows no
  // holder), saturated at max_clock.
  void row(const VectorClock& c, std::vector<uint64_t>& out) const;
  // The same, and lane `own`'s clock before saturation (whether the thread
  // holding it outgrew max_clock) from the same lookup.
  uint64_t row(const VectorClock& c, std::vector<uint64_t>& out, unsigned own) const;
  // One lane of it, not saturated.
  uint64_t lane_value(const VectorClock& c, unsigned lane) const;
  // `thread`'s own lane clock outgrew max_clock: it leaves its lane for good.
  void evict(uint32_t thread);
  bool evicted(uint32_t thread) const { return thread < state_.size() && evicted_[thread]; }
  // The thread (dense index) and local time of lane clock `clock` of `lane`;
  // nothing if no holder of the lane had that clock (a device fault).
  std::optional<Epoch> thread_epoch(unsigned lane, uint64_t clock) const;
  // The other way: the lane and lane clock of a thread's epoch, if it was
  // made while the thread held a lane and fits the clock width (what a host
  // line needs for it to go back on chip); nothing otherwise.
  std::optional<Epoch> lane_epoch(const Epoch& thread_epoch) const;
  // A row of lane clocks as a clock over dense threads (zero lanes stay zero).
  std::optional<VectorClock> thread_clock(const std::vector<uint64_t>& row) const;
  uint64_t recycled() const { return recycled_; }
  uint64_t adopted() const { return adopted_; }

 private:
  struct Holder {
    uint32_t thread = 0;
    uint64_t start = 1;         // its local time when it took the lane
    uint64_t base = 1;          // lane clock = base + (local time - start)
    uint64_t end = UINT64_MAX;  // last local time with lane epochs, once the lane moved on
  };
  struct Lane {
    std::vector<Holder> holders;
    bool free = false;    // the holder was joined and has not acted since
    bool pinned = false;  // the holder acted after its join, or was evicted: never recycled
    uint64_t final_local = 0;
    uint64_t next_clock() const {  // the next holder's first lane clock
      const Holder& h = holders.back();
      return h.base + (final_local - h.start) + 1;
    }
  };
  enum class State : uint8_t { Live, Joined };

  void grow(uint32_t thread);
  void acted_after_join(uint32_t thread);
  // The free lane with the lowest clock whose holder's end `clock` knows.
  uint32_t recyclable_lane(const VectorClock& clock) const;
  void give(uint32_t thread, unsigned lane, uint64_t start);
  void set_free(Lane& lane, bool free);
  // The latest holder of `lane` that `c` knows, or -1.
  int64_t known_holder(const Lane& lane, const VectorClock& c) const;

  bool recycle_;
  uint64_t max_clock_;
  std::vector<Lane> lanes_;
  std::vector<uint32_t> lane_of_;  // by dense thread
  std::vector<State> state_;       // by dense thread
  std::vector<bool> evicted_;      // by dense thread
  // By dense thread: the lane it held (a thread holds at most one, ever)
  // and its place among the lane's holders.
  std::vector<uint32_t> held_lane_, holder_index_;
  unsigned fresh_ = 0;  // lanes 0 .. fresh_-1 have been used
  // Every used lane l is held by thread l, its only holder, from local time
  // 1 on (no lane was ever given again): a lane clock is then the thread's
  // local time, and row() copies the clock instead of searching holders.
  bool identity_ = true;
  unsigned free_ = 0;  // lanes free for recycling
  uint64_t recycled_ = 0, adopted_ = 0;
};

}  // namespace raceaccel::offload
