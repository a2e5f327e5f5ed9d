// FastTrack's atomic history: for each byte an atomic access ever touched
// (since its last alloc/free or a plain write that ordered after all of it),
// the clocks of its atomic reads AR_x and atomic writes AW_x, each entry with
// the site of the access that set it (docs/detectors.md, "Atomic accesses").
//
// Atomic writes are not totally ordered (concurrent atomic writes do not
// race), so FastTrack's epoch for the last write does not apply to them: both
// clocks are full vector clocks. They live beside the shadow cells, keyed by
// byte, and only for bytes with atomic history; the cell's kAtomic flag says
// whether to look here, so plain accesses to other cells never do.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "detect/fasttrack_shadow.hpp"

namespace raceaccel {

struct AtomicHistory {
  ReadClock reads;   // AR_x: AtomicLoad and AtomicRmw
  ReadClock writes;  // AW_x: AtomicStore and AtomicRmw
};

// Byte address -> AtomicHistory. Every atomic access checks its location's
// history, so the look-up is on the hot path of atomic-heavy code: an
// open-addressed table (linear probing, multiply-shift hash) of keys and
// indexes, beside the histories in chunks that never move. An unordered_map
// cost a division and a node per look-up: 8 % of a single-threaded ring's
// CPU time (perf, docs/performance.md "Session 13"). Erasing shifts the
// probe run back (no tombstones), so a table that atomics and frees churn
// does not fill with dead slots; erased histories are reused.
class AtomicShadow {
 public:
  AtomicShadow() : slots_(kInitialSlots) {}
  // The history of byte addr, nullptr if it has none. Valid until the byte
  // is erased: inserting other bytes never moves a history.
  const AtomicHistory* find(uint64_t addr) const {
    const Slot* s = slot_of(addr);
    return s == nullptr ? nullptr : &histories_[s->index];
  }
  AtomicHistory* find(uint64_t addr) {
    const Slot* s = slot_of(addr);
    return s == nullptr ? nullptr : &histories_[s->index];
  }
  AtomicHistory& at(uint64_t addr);  // created empty on first use
  // Discards the history of [addr, addr+size).
  void erase(uint64_t addr, uint64_t size);
  size_t bytes() const { return used_; }

 private:
  struct Slot {
    uint64_t key = 0;  // addr + 1; 0 marks an empty slot (no byte is at 2^64 - 1)
    uint32_t index = 0;
  };
  static constexpr size_t kInitialSlots = 16;
  size_t home(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }
  const Slot* slot_of(uint64_t addr) const {
    const uint64_t key = addr + 1;
    for (size_t i = home(key);; i = next(i)) {
      if (slots_[i].key == key) return &slots_[i];
      if (slots_[i].key == 0) return nullptr;
    }
  }
  void erase_byte(uint64_t addr);
  void rehash(size_t n);
  static uint64_t page_of(uint64_t addr) { return addr >> 12; }

  std::vector<Slot> slots_;
  unsigned shift_ = 64 - 4;  // log2(kInitialSlots)
  size_t used_ = 0;
  ChunkedVector<AtomicHistory> histories_;
  std::vector<uint32_t> free_;  // indexes of erased histories, cleared
  // Bytes with a history per 4 KiB page (pages with none are absent), so
  // that erasing a range (every free and allocation) skips the pages that
  // have none instead of probing the table once per byte: with 400,000
  // atomic locations a producer/consumer spent 45 % of its time in those
  // probes, a cache miss each.
  std::unordered_map<uint64_t, uint32_t> page_bytes_;
};

// The lowest slot u with clock(u) > C(u), or -1: the concurrent access a race names.
inline int64_t first_concurrent(const ReadClock& rc, const uint64_t* clock, size_t len) {
  for (uint32_t u = 0; u < rc.size(); ++u) {
    if (rc.clock(u) > (u < len ? clock[u] : 0)) return u;
  }
  return -1;
}

}  // namespace raceaccel
