// The atomic history of every byte, kept by the host alone
// (docs/kernel-interface.md, "Atomic accesses on chip"): DJIT+'s AW_x and
// AR_x (docs/event-model.md), full clocks of the atomic writes and reads of
// each byte with each entry's site, recorded as the atomic accesses are
// sent, in program order.
//
// The chip checks an atomic access against the plain history of its line
// and records nothing about it; the host checks each plain access against
// this history before it sends it. Two atomic accesses never race, so the
// history never needs the line, and a plain access needs the history only
// to ask "is every atomic access of these bytes ordered before me?" — with
// the thread's clock at the access, which the host has at send time. When
// the answer is no (the access races with an atomic one unless an earlier
// plain write races first, or the byte already raced), the command goes to
// the host forced, with the first concurrent atomic access of each byte
// captured here (AtomicConflicts), so the host's check reports exactly
// DJIT+'s race: the plain write first, then this.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/vector_clock.hpp"
#include "detect/race.hpp"

namespace raceaccel::offload {

// The earliest-checked atomic access of a byte that a plain access is
// concurrent with, in DJIT+'s order: atomic writes first, then (for a plain
// write) atomic reads, each clock by lowest thread slot.
struct AtomicConflict {
  RaceKind kind = RaceKind::WriteRead;
  Epoch prev;         // dense thread slot and its local time
  uint64_t site = 0;  // the atomic access's site
};
using AtomicConflicts = std::array<std::optional<AtomicConflict>, 8>;

class AtomicHistory {
 public:
  // An atomic access of the bytes in `mask` of `granule` by `me` (the
  // thread's epoch after the operation's acquire part) at trace event
  // `event`. A second access of the same kind in the same epoch keeps the
  // first site, as DJIT+ does.
  void record(uint64_t granule, unsigned mask, Epoch me, uint64_t site, bool reads, bool writes, uint64_t event);
  // For a plain read or write of `mask` with clock `now`: the bytes with an
  // atomic access concurrent with `now`, and for each the conflict.
  unsigned conflicts(uint64_t granule, unsigned mask, bool write, const VectorClock& now, AtomicConflicts& out) const;
  // Alloc and free: the bytes of [addr, addr + size) lose their history.
  void forget(uint64_t addr, uint64_t size);
  // The bytes in `mask` raced at trace event `event`: a raced byte is never
  // checked again, so its history can go — unless it was reset (a free)
  // after the race and has history again, which the race says nothing about
  // (the race is learnt when its command is answered, after later events
  // were sent). Keeps later plain accesses of a raced byte on chip.
  void forget_raced(uint64_t granule, unsigned mask, uint64_t event);
  bool empty() const { return lines_.empty(); }
  // False when `granule` has no atomic history, for certain (a bit filter:
  // one multiply and one load, so plain accesses of granules without
  // atomics, nearly all of them, skip the hash look-up).
  bool may_have(uint64_t granule) const {
    const uint64_t h = filter_index(granule);
    return ((filter_[h >> 6] >> (h & 63)) & 1u) != 0;
  }
  size_t granules() const { return lines_.size(); }

 private:
  struct Clock {
    VectorClock clock;
    std::vector<uint64_t> sites;  // by slot
    void set(Epoch me, uint64_t site);
    int64_t first_concurrent(const VectorClock& now) const;
  };
  struct Byte {
    explicit Byte(uint64_t first) : since(first) {}
    Clock reads, writes;
    uint64_t since;  // the event of the first access recorded since the byte's last reset
  };
  void forget_bytes(uint64_t granule, unsigned mask);
  struct Line {
    std::array<std::optional<Byte>, 8> bytes;
  };
  static constexpr unsigned kFilterBits = 16;  // 8 KB: stays in the cache
  static uint64_t filter_index(uint64_t granule) { return (granule * 0x9E3779B97F4A7C15ull) >> (64 - kFilterBits); }
  std::unordered_map<uint64_t, Line> lines_;
  // Bit filter_index(g) set for every granule g recorded since the history
  // was last empty (never cleared before: a stale bit only costs a look-up).
  std::vector<uint64_t> filter_ = std::vector<uint64_t>(size_t{1} << (kFilterBits - 6), 0);
};

}  // namespace raceaccel::offload
