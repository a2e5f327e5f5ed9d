// FastTrack's synchronization state (Fig. 4 plus the extensions in
// docs/event-model.md), coded independently of ReferenceSyncState so that the
// differential test compares two implementations of the same rules.
// Thread clocks are flat arrays the access path reads directly.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "core/thread_slots.hpp"

namespace raceaccel {

class FastTrackSync {
 public:
  using Clock = std::vector<uint64_t>;  // implicitly zero beyond size()

  uint32_t thread(ThreadId tid);  // creates C_t = inc_t(⊥) on first sight
  const Clock& clock(uint32_t slot) const { return threads_[slot].clock; }
  uint64_t packed_epoch(uint32_t slot) const { return threads_[slot].epoch; }
  ThreadId tid_of(uint32_t slot) const { return slots_.tid_of(slot); }

  void apply(const Event& e, uint32_t t);
  // An atomic event's two halves; its access is checked between them
  // (docs/event-model.md). apply() runs both.
  void atomic_acquire(const Event& e, uint32_t t);
  void atomic_release(const Event& e, uint32_t t);
  void forget_atomics(uint64_t addr, uint64_t size);

 private:
  struct Thread {
    Clock clock;
    uint64_t epoch = 0;  // packed E_t, kept in step with clock[slot]
    Clock release_fence;
    Clock pending_acquire;
  };
  struct LockClocks {
    Clock exclusive, shared;
  };
  struct BarrierRounds {
    uint64_t round = 0;
    Clock arrived, released;
    std::unordered_map<uint32_t, uint64_t> entered_round;
  };

  static void join(Clock& into, const Clock& from);
  void tick(uint32_t slot);

  ThreadSlots slots_;
  static constexpr uint32_t kNoSlot = ~uint32_t{0};
  ThreadId last_tid_ = 0;  // the last thread() lookup, a cache
  uint32_t last_slot_ = kNoSlot;
  std::vector<Thread> threads_;
  std::unordered_map<uint64_t, LockClocks> locks_;
  std::unordered_map<uint64_t, BarrierRounds> barriers_;
  std::map<uint64_t, Clock> atomics_;
};

}  // namespace raceaccel
