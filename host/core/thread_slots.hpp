// Maps the sparse thread ids of a trace (any uint32_t) to dense slots 0, 1,
// 2, ... in order of first appearance, so vector clocks can be arrays.
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
    uint32_t* entry;
    if (tid < kDirectLimit) {
      if (tid >= direct_.size()) direct_.resize(tid + 1, kNone);
      entry = &direct_[tid];
    } else {
      entry = &sparse_.try_emplace(tid, kNone).first->second;
    }
    const bool fresh = *entry == kNone;
    if (fresh) {
      *entry = static_cast<uint32_t>(tids_.size());
      tids_.push_back(tid);
    }
    if (created != nullptr) *created = fresh;
    return *entry;
  }
  uint32_t count() const { return static_cast<uint32_t>(tids_.size()); }
  ThreadId tid_of(uint32_t slot) const { return tids_[slot]; }

 private:
  // Small ids (the common case) use a flat table; large ones a hash map.
  static constexpr uint32_t kDirectLimit = 1u << 16;
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> direct_;
  std::unordered_map<ThreadId, uint32_t> sparse_;
  std::vector<ThreadId> tids_;
};

}  // namespace raceaccel
