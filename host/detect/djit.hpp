// DJIT+ with full vector clocks per byte: the golden reference.
//
// Deliberately simple: one hash-map entry per byte ever accessed, holding the
// read and write vector clocks R_x and W_x. Any disagreement between this
// detector and another checker is a bug in the other checker (or here), never
// a tolerance.
#pragma once

#include <unordered_map>

#include "detect/detector.hpp"
#include "detect/sync_state.hpp"

namespace raceaccel {

class DjitDetector final : public Detector {
 public:
  DjitDetector() : sync_(/*retire_joined=*/true) {}
  std::string_view name() const override { return "djit"; }
  void process(const Event& event, uint64_t index) override;
  const std::vector<Race>& races() const override { return races_; }

  // Inspection for tests. Clocks are indexed by slot (threads in order of first appearance).
  const ReferenceSyncState& sync() const { return sync_; }
  VectorClock thread_clock(ThreadId tid) { return sync_.clock(sync_.thread(tid)); }
  VectorClock read_clock(uint64_t addr) const;
  VectorClock write_clock(uint64_t addr) const;

 private:
  struct Location {
    VectorClock reads;       // R_x
    VectorClock writes;      // W_x
    VectorClock read_sites;  // by slot (a site per reader, held like a clock)
    Epoch last_write;        // for reporting: writes are totally ordered until the first race
    uint64_t last_write_site = 0;
    bool raced = false;  // first race reported; later accesses are not checked
  };
  void access(const Event& e, uint64_t index, uint32_t slot, uint64_t addr);

  ReferenceSyncState sync_;
  std::unordered_map<uint64_t, Location> locations_;
  std::vector<Race> races_;
};

}  // namespace raceaccel
