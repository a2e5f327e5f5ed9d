// The clocks of the locks of one stripe (ShardedFastTrack), by lock address.
//
// Open addressing with the clocks in the slot: a look-up of a lock not
// touched for a while (a walk over many node locks, chase) costs the miss
// of its slot, where a node-based std::unordered_map costs the bucket, the
// node before the first of the bucket, the node itself and a division by
// the prime bucket count. Linear probing, doubled at three-quarter load
// (slots are 48 bytes: at half load chase's 65,536 node locks took 12 MiB,
// 6 MiB more than at three quarters); erase() shifts the probe chain back
// (no tombstones), for locks whose memory is freed.
#pragma once

#include <atomic>
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
  LockTable() : slots_(kInitialSlots) { publish_slots(); }

  // Starts loading the cache line of addr's home slot, without the
  // stripe's lock (lock interceptors call it before the real lock, whose
  // own work then hides the miss of the look-up after it). The base and
  // mask may be a grow() apart; a prefetch of a stale address is harmless.
  void prefetch(uint64_t addr) const {
    const Slot* base = prefetch_base_.load(std::memory_order_relaxed);
    const size_t mask = prefetch_mask_.load(std::memory_order_relaxed);
    __builtin_prefetch(base + (static_cast<size_t>(mix64(addr)) & mask));
  }

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
  // The clocks of the lock at addr, made empty if it has none (then
  // `added` is set).
  LockClocks& get(uint64_t addr, bool& added) {
    added = false;
    if (addr == 0) [[unlikely]] {  // 0 marks empty slots: its clocks live apart
      added = !zero_used_;
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
    added = true;
    size_t i = home(addr);
    while (slots_[i].key != 0) i = next(i);
    slots_[i].key = addr;
    return slots_[i].clocks;
  }
  LockClocks& get(uint64_t addr) {
    bool added = false;
    return get(addr, added);
  }
  // Forgets the lock at addr (its memory was freed). Linear probing
  // without tombstones: each later entry of the probe chain whose home
  // does not lie cyclically in (hole, entry] moves back into the hole, so
  // that every key stays reachable from its home.
  void erase(uint64_t addr) {
    if (addr == 0) [[unlikely]] {
      zero_used_ = false;
      zero_ = LockClocks{};
      return;
    }
    size_t hole = home(addr);
    for (;; hole = next(hole)) {
      if (slots_[hole].key == addr) break;
      if (slots_[hole].key == 0) return;  // not here
    }
    for (size_t j = next(hole); slots_[j].key != 0; j = next(j)) {
      const size_t k = home(slots_[j].key);
      const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
      if (stays) continue;
      slots_[hole] = std::move(slots_[j]);
      hole = j;
    }
    slots_[hole] = Slot{};
    --used_;
  }
  size_t size() const { return used_ + (zero_used_ ? 1 : 0); }

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
    publish_slots();
  }
  void publish_slots() {
    prefetch_base_.store(slots_.data(), std::memory_order_relaxed);
    prefetch_mask_.store(slots_.size() - 1, std::memory_order_relaxed);
  }

  std::vector<Slot> slots_;
  std::atomic<const Slot*> prefetch_base_{nullptr};
  std::atomic<size_t> prefetch_mask_{0};
  size_t used_ = 0;
  LockClocks zero_;  // a "lock" at address 0 (an annotation of a null pointer)
  bool zero_used_ = false;
};

}  // namespace raceaccel::rt
