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
  void forget_races() override { forget_race_list(races_); }
  bool shardable() const override { return true; }
  void process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) override;

  // Inspection for tests. Clocks are indexed by slot (threads in order of first appearance).
  const ReferenceSyncState& sync() const { return sync_; }
  VectorClock thread_clock(ThreadId tid) { return sync_.clock(sync_.thread(tid)); }
  VectorClock read_clock(uint64_t addr) const;
  VectorClock write_clock(uint64_t addr) const;
  VectorClock atomic_read_clock(uint64_t addr) const;
  VectorClock atomic_write_clock(uint64_t addr) const;

 private:
  // A vector clock with the site of each thread's entry: the first access
  // of that thread in that epoch ([SAME EPOCH] rules keep it).
  struct SitedClock {
    VectorClock clock;
    VectorClock sites;  // by slot (a site per entry, held as compactly as a clock)
    void set(uint32_t slot, uint64_t time, uint64_t site);
    // The lowest slot whose entry C does not cover, or -1.
    int64_t first_concurrent(const VectorClock& now) const;
  };
  struct Location {
    SitedClock reads;          // R_x: plain reads
    VectorClock writes;        // W_x: plain writes
    SitedClock atomic_reads;   // AR_x: AtomicLoad and AtomicRmw
    SitedClock atomic_writes;  // AW_x: AtomicStore and AtomicRmw
    Epoch last_write;          // for reporting: plain writes are totally ordered until the first race
    uint64_t last_write_site = 0;
    bool raced = false;  // first race reported; later accesses are not checked
  };
  template <typename Member>
  VectorClock clock_of(uint64_t addr, Member member) const;
  void access(const Event& e, uint64_t index, uint32_t slot, uint64_t addr);
  void atomic_access(const Event& e, uint64_t index, uint32_t slot, uint64_t addr);

  ReferenceSyncState sync_;
  std::unordered_map<uint64_t, Location> locations_;
  std::vector<Race> races_;
};

}  // namespace raceaccel
