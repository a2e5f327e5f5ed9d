// The clocks of the locks of one stripe (ShardedFastTrack), by lock address.
//
// Open addressing with the clocks in the slot: a look-up of a lock not
// touched for a while (a walk over many node locks, chase) costs the miss
// of its slot, where a node-based std::unordered_map costs the bucket, the
// node before the first of the bucket, the node itself and a division by
// the prime bucket count. Linear probing, doubled at three-quarter load
// (slots are 48 bytes: at half load chase's 65,536 node locks took 12 MiB,
// 6 MiB more than at three quarters); no removal (lock clocks outlive their
// lock: docs/runtime.md, "Not done yet").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/vector_clock.hpp"
#include "runtime/id_index.hpp"

namespace raceaccel::rt {

// The clocks of one lock.
struct LockClocks {
  VectorClock exclusive;
  std::unique_ptr<VectorClock> shared;  // read-write locks only
};

class LockTable {
 public:
  LockTable() : slots_(kInitialSlots) {}

  // The clocks of the lock at addr, nullptr if it has none. Valid until
  // the next get().
  const LockClocks* find(uint64_t addr) const {
    if (addr == 0) [[unlikely]]
      return zero_used_ ? &zero_ : nullptr;
    for (size_t i = home(addr);; i = next(i)) {
      const Slot& s = slots_[i];
      if (s.key == addr) return &s.clocks;
      if (s.key == 0) return nullptr;
    }
  }
  // The clocks of the lock at addr, made empty if it has none.
  LockClocks& get(uint64_t addr) {
    if (addr == 0) [[unlikely]] {  // 0 marks empty slots: its clocks live apart
      zero_used_ = true;
      return zero_;
    }
    for (size_t i = home(addr);; i = next(i)) {
      Slot& s = slots_[i];
      if (s.key == addr) return s.clocks;
      if (s.key == 0) break;
    }
    if (4 * (used_ + 1) > 3 * slots_.size()) grow();
    ++used_;
    size_t i = home(addr);
    while (slots_[i].key != 0) i = next(i);
    slots_[i].key = addr;
    return slots_[i].clocks;
  }

 private:
  struct Slot {
    uint64_t key = 0;  // the lock's address; 0: empty
    LockClocks clocks;
  };
  static constexpr size_t kInitialSlots = 64;
  size_t home(uint64_t addr) const { return static_cast<size_t>(mix64(addr)) & (slots_.size() - 1); }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }
  void grow() {
    std::vector<Slot> old(2 * slots_.size());
    old.swap(slots_);
    for (Slot& s : old) {
      if (s.key == 0) continue;
      size_t i = home(s.key);
      while (slots_[i].key != 0) i = next(i);
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  size_t used_ = 0;
  LockClocks zero_;  // a "lock" at address 0 (an annotation of a null pointer)
  bool zero_used_ = false;
};

}  // namespace raceaccel::rt
