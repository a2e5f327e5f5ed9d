// Happens-before bookkeeping for synchronization, as specified in
// docs/event-model.md: thread clocks, lock clocks (exclusive and shared
// sides), barrier rounds, atomic release sequences and fences.
//
// This is the simple, obviously-correct version used by the golden DJIT+
// detector. FastTrack has its own implementation (fasttrack_sync.hpp) so
// that the differential test compares two independent codings of the rules.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "core/retired_clocks.hpp"
#include "core/thread_slots.hpp"
#include "core/vector_clock.hpp"

namespace raceaccel {

class ReferenceSyncState {
 public:
  // With retire_joined, a joined thread's clocks are moved to RetiredClocks
  // (compact, exact) and restored should it act again: memory then grows
  // with the threads alive, not with every thread ever seen. clock() of a
  // retired slot is empty, so users that read the clocks of arbitrary slots
  // (the offload mirror) leave it off.
  explicit ReferenceSyncState(bool retire_joined = false) : retire_joined_(retire_joined) {}

  // Slot of tid, creating the thread (C_t = inc_t(⊥)) on first sight, or
  // restoring it if it was retired.
  uint32_t thread(ThreadId tid);
  const VectorClock& clock(uint32_t slot) const { return threads_[slot].clock; }
  uint64_t local_time(uint32_t slot) const { return threads_[slot].clock.get(slot); }
  ThreadId tid_of(uint32_t slot) const { return slots_.tid_of(slot); }
  uint32_t thread_count() const { return slots_.count(); }

  // Applies a synchronization, fork/join, atomic or fence event.
  void apply(const Event& e);
  // An atomic event in its two halves: its access is checked between them,
  // with the clock the acquire part produced and before the release part's
  // increment (docs/event-model.md, "Atomic accesses"). apply() runs both.
  void atomic_acquire(const Event& e);
  void atomic_release(const Event& e);
  // Alloc/free of [addr, addr+size): the synchronization objects there are
  // gone, so memory reused for a new one starts it with no history (as
  // ThreadSanitizer resets the sync state of freed memory;
  // docs/event-model.md, "Alloc and Free"): forgets their atomic release
  // clocks and lock clocks. Returns the addresses of the locks forgotten
  // (the offload engine drops their copies on chip); valid until the next
  // call.
  const std::vector<uint64_t>& forget(uint64_t addr, uint64_t size);
  // Destroy of [addr, addr+size): the lock clocks alone (the locks there
  // start over; atomics keep theirs, as the memory keeps its history).
  // Returns the locks forgotten, as forget() does.
  const std::vector<uint64_t>& forget_locks(uint64_t addr, uint64_t size);
  // Heap bytes of the thread clocks, live and retired (tests watch the memory).
  size_t thread_clock_bytes() const;

  // A lock's clocks: joined by Release (exclusive) and by ReleaseShared
  // (shared). Tests inspect them; the engine host mirrors them on chip.
  // References into the state (an empty clock for an unknown lock), valid
  // until the next event is applied: the offload engine reads them on every
  // lock event, and a copy would allocate.
  const VectorClock& lock_clock(uint64_t id) const;
  const VectorClock& lock_shared_clock(uint64_t id) const;

 private:
  struct Thread {
    VectorClock clock;
    VectorClock release_fence;    // clock at the last release fence
    VectorClock pending_acquire;  // release clocks read by relaxed loads since the last acquire fence
    uint32_t retired = kLive;     // or the RetiredClocks id of clock
  };
  static constexpr uint32_t kLive = UINT32_MAX;
  struct Lock {
    VectorClock exclusive;  // joined by Release
    VectorClock shared;     // joined by ReleaseShared
  };
  struct Barrier {
    uint64_t round = 0;
    VectorClock arrived;   // clocks of threads that entered the open round
    VectorClock released;  // the last closed round
    std::unordered_map<uint32_t, uint64_t> entered_round;
  };

  void increment(uint32_t slot);
  void retire(uint32_t slot);

  bool retire_joined_;
  ThreadSlots slots_;
  std::vector<Thread> threads_;
  RetiredClocks retired_;
  Lock& lock(uint64_t id);  // made empty on first use
  std::unordered_map<uint64_t, Lock> locks_;
  std::set<uint64_t> lock_ids_;  // the keys of locks_, ordered: a free finds the locks in its range
  std::vector<uint64_t> forgotten_;
  std::unordered_map<uint64_t, Barrier> barriers_;
  std::map<uint64_t, VectorClock> atomics_;  // by address; ordered for range erase
};

}  // namespace raceaccel
