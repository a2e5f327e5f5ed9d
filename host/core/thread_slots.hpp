// Maps the sparse thread ids of a trace (any uint32_t) to dense slots 0, 1,
// 2, ... in order of first appearance, so vector clocks can be arrays. A
// detector may hand a slot to another thread (reassign): FastTrack reuses
// the slot of a joined thread for a new one (detect/fasttrack_sync.hpp).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"

namespace raceaccel {

class ThreadSlots {
 public:
  // The slot of tid; *created is set to whether tid was seen for the first time.
  uint32_t slot(ThreadId tid, bool* created = nullptr) {
    uint32_t& entry = entry_of(tid);
    const bool fresh = entry == kNone;
    if (fresh) {
      entry = static_cast<uint32_t>(tids_.size());
      tids_.push_back(tid);
    }
    if (created != nullptr) *created = fresh;
    return entry;
  }
  bool contains(ThreadId tid) const {
    if (tid < kDirectLimit) return tid < direct_.size() && direct_[tid] != kNone;
    const auto it = sparse_.find(tid);
    return it != sparse_.end() && it->second != kNone;
  }
  // From now on `slot` is tid's (tid must have none), and its occupant until
  // now has no slot: its next slot() gives it a fresh one.
  void reassign(uint32_t slot, ThreadId tid) {
    entry_of(tids_[slot]) = kNone;
    entry_of(tid) = slot;
    tids_[slot] = tid;
  }
  uint32_t count() const { return static_cast<uint32_t>(tids_.size()); }
  // The slot's current occupant.
  ThreadId tid_of(uint32_t slot) const { return tids_[slot]; }

 private:
  uint32_t& entry_of(ThreadId tid) {
    if (tid < kDirectLimit) {
      if (tid >= direct_.size()) direct_.resize(tid + 1, kNone);
      return direct_[tid];
    }
    return sparse_.try_emplace(tid, kNone).first->second;
  }
  // Small ids (the common case) use a flat table; large ones a hash map.
  static constexpr uint32_t kDirectLimit = 1u << 16;
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> direct_;
  std::unordered_map<ThreadId, uint32_t> sparse_;
  std::vector<ThreadId> tids_;
};

}  // namespace raceaccel
