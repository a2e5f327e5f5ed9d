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

#include "detect/fasttrack_shadow.hpp"

namespace raceaccel {

struct AtomicHistory {
  ReadClock reads;   // AR_x: AtomicLoad and AtomicRmw
  ReadClock writes;  // AW_x: AtomicStore and AtomicRmw
};

class AtomicShadow {
 public:
  // The history of byte addr, nullptr if it has none.
  const AtomicHistory* find(uint64_t addr) const {
    auto it = bytes_.find(addr);
    return it == bytes_.end() ? nullptr : &it->second;
  }
  AtomicHistory* find(uint64_t addr) {
    auto it = bytes_.find(addr);
    return it == bytes_.end() ? nullptr : &it->second;
  }
  AtomicHistory& at(uint64_t addr) { return bytes_[addr]; }  // created empty on first use
  // Discards the history of [addr, addr+size).
  void erase(uint64_t addr, uint64_t size);
  size_t bytes() const { return bytes_.size(); }

 private:
  std::unordered_map<uint64_t, AtomicHistory> bytes_;
};

// The lowest slot u with clock(u) > C(u), or -1: the concurrent access a race names.
inline int64_t first_concurrent(const ReadClock& rc, const uint64_t* clock, size_t len) {
  for (uint32_t u = 0; u < rc.size(); ++u) {
    if (rc.clock(u) > (u < len ? clock[u] : 0)) return u;
  }
  return -1;
}

}  // namespace raceaccel
