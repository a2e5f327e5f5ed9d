// The clocks of joined threads, kept exactly in little memory.
//
// A joined thread normally never acts again, but the event model defines
// what happens if it does (docs/event-model.md: Join increments the joined
// thread, which may go on), so its clock cannot simply be dropped. Keeping
// every ended thread's clock in full costs O(threads²) for the common
// create-and-join pattern, where each child starts from its parent's clock
// and so knows about every thread joined before it. Consecutive retired
// clocks differ in a few entries, so each is stored as its difference from
// the previously retired one; restore() walks the chain back. Retiring costs
// O(non-zero entries). A record stores the whole clock instead (a snapshot,
// where restore() stops) once the differences stored since the last snapshot
// are as many as the clock's entries: restoring then costs at most twice the
// clock's entries, and the snapshots at most as much memory as the
// differences. (Restores are frequent when threads are retired as they end,
// before their join: docs/detectors.md, "Memory for many threads".)
#pragma once

#include <cstdint>
#include <vector>

#include "core/vector_clock.hpp"

namespace raceaccel {

class RetiredClocks {
 public:
  // Stores `clock`, returns its id for restore().
  uint32_t retire(const VectorClock& clock);
  VectorClock restore(uint32_t id) const;
  size_t count() const { return records_.size(); }
  // Entries stored over all retired clocks (tests watch the memory).
  size_t stored_entries() const;
  size_t heap_bytes() const;

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Record {
    uint32_t previous = kNone;  // the record this one is a difference from
    // (slot, value) pairs where this clock differs from the previous one;
    // a value of 0 means the entry is zero here.
    std::vector<uint64_t> changes;
  };
  std::vector<Record> records_;
  VectorClock last_;           // the last retired clock, the base of the next difference
  size_t since_snapshot_ = 0;  // difference entries stored since the last snapshot
};

}  // namespace raceaccel
