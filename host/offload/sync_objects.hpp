// Lock clocks in the device's sync-object store (docs/kernel-interface.md,
// ops 4–6; docs/hardware.md, "The sync-object clock store").
//
// The store is host-managed: the host decides which lock clock lives in
// which entry (direct-mapped by a hash of the lock and its side), loads an
// entry before its first use or after another clock took it, and keeps an
// exact mirror of every entry, so nothing is ever read back: an evicted
// lock clock is simply reloaded from the host's own copy. The mirror is
// checked against the host's lock clock at every reuse (a divergence
// throws std::logic_error: it would be a host bug, never a tolerance).
//
// What runs on chip, for a thread with a slot:
//   Acquire        C_t ⊔= exclusive (and ⊔= shared, when it is not zero)
//   AcquireShared  C_t ⊔= exclusive
//   Release        exclusive ⊔= C_t; tick t
//   ReleaseShared  shared ⊔= C_t; tick t
// Everything else — threads without a slot, a tick that would outgrow the
// clock width, a lock clock that does not fit it, barriers, fork/join,
// atomics, fences — stays with the caller (set-row). Lanes of threads
// without a slot are not kept on chip: no on-chip epoch can name them.
//
// Used by the offload engine (offload_checker.cpp); independent of the
// device so that other hosts of the engine (sim/engine_checker) can share it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "core/vector_clock.hpp"
#include "detect/sync_state.hpp"
#include "offload/lane_map.hpp"

namespace raceaccel::offload {

struct SyncObjectCommand {
  enum class Kind : uint8_t { Load, Acquire, Release };
  Kind kind = Kind::Load;
  unsigned entry = 0;           // the object index (the command's granule field)
  std::vector<uint64_t> lanes;  // Load: the clock, one lane per slot
};

struct SyncObjectStats {
  uint64_t acquires = 0, releases = 0, loads = 0;  // commands planned
  uint64_t on_chip = 0, in_software = 0;           // lock events of threads with a slot
};

class SyncObjectStore {
 public:
  // entries: store entries the host may use (at most cap_objects; 0: none,
  // every lock event stays in software); slots, clock_bits: the device's.
  SyncObjectStore(unsigned entries, unsigned slots, unsigned clock_bits);
  // With slot recycling, thread `t` uses lane lanes->lane_of(t) and clocks
  // become rows through `lanes` (lane_map.hpp); without, thread t is lane t.
  void use_lanes(const LaneMap* lanes) { lanes_ = lanes; }

  // If the lock event `e` of thread slot `t` can run on chip: applies it to
  // `sync`, appends the commands that make the device do the same to `out`
  // (in order) and returns true. Otherwise changes nothing and returns
  // false; the caller then applies `e` itself and calls applied_in_software.
  // The caller guarantees that the device's row of `t` equals
  // device_lanes(sync.clock(t)) (no clock of the device has outgrown it).
  bool apply_on_chip(const Event& e, uint32_t t, ReferenceSyncState& sync, std::vector<SyncObjectCommand>& out);
  // `e` was applied to the host's state without the device: a lock clock it
  // changed is stale on chip and is reloaded at its next use.
  void applied_in_software(const Event& e);
  // The host forgot these locks (their memory was freed or allocated:
  // ReferenceSyncState::forget): their entries are dropped, so that a new
  // lock at the same address is loaded with its own, empty clocks.
  void forget_locks(const std::vector<uint64_t>& locks);

  // The lanes the device keeps of a clock: one per slot (LaneMap::row).
  std::vector<uint64_t> device_lanes(const VectorClock& c) const;
  void device_lanes(const VectorClock& c, std::vector<uint64_t>& out) const;  // without allocating
  unsigned entries() const { return static_cast<unsigned>(entries_.size()); }
  const SyncObjectStats& stats() const { return stats_; }

 private:
  struct Entry {
    bool valid = false;
    uint64_t lock = 0;
    bool shared = false;
    std::vector<uint64_t> value;  // what the device's entry holds
  };
  unsigned entry_of(uint64_t lock, bool shared) const;
  unsigned place(uint64_t lock, bool shared, const std::vector<uint64_t>& value, std::vector<SyncObjectCommand>& out);
  bool fits(const std::vector<uint64_t>& lanes) const;
  size_t live(const std::vector<uint64_t>& lanes) const;  // leading lanes that can be non-zero

  std::vector<Entry> entries_;
  const LaneMap* lanes_ = nullptr;
  std::vector<uint64_t> exclusive_, shared_;  // scratch: the lock's two clocks, slot lanes
  unsigned slots_;
  uint64_t max_clock_;
  SyncObjectStats stats_;
};

}  // namespace raceaccel::offload
