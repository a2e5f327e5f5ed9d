// The eviction spill (docs/hardware.md, "The read-VC pool"): a line whose
// read clock is in the pool hands it to the host (a read-clock spill record)
// when a miss evicts it, so a clock is in the pool only while its line is in
// the cache. Directed traces on the tinycache model (2 sets x 2 ways, 2 pool
// entries: a granule's entry is its set), against DJIT+.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "Vengine_tinycache.h"
#include "engine_checker.hpp"
#include "engine_models.hpp"

namespace raceaccel::sim {
namespace {

using EvictionRun = GoldenRun;
EvictionRun run_events(const std::vector<Event>& events, unsigned stall_percent, uint64_t seed) {
  EngineConfig c = tinycache_model();
  c.stall_percent = stall_percent;
  c.seed = seed;
  c.trace_tag = "eviction";
  return run_against_djit<Vengine_tinycache>(c, events);
}

// With two sets the set of a granule is the parity of its 61 bits:
// granules 0x20, 0x23 and 0x25 (0x100, 0x118, 0x128) are all in set 1, and
// so in pool entry 1. T1 and T0 read 0x100 concurrently (READ SHARE: entry
// 1 takes the clock); two more granules of set 1 evict it (the second miss
// finds no free way; round-robin picks way 0, 0x100's), which must spill
// its clock to the host. Filled back, the line is LASTWRITE: T2's
// concurrent read is kept in R on chip, and T0's write goes to the host,
// which joins the spilled clock with R and must find the races with T1 and
// T2 that DJIT+ finds.
std::vector<Event> evicted_shared_line(bool dirty_evictors) {
  std::vector<Event> events = {Event::write(0, 0x100, 8), Event::sync(Op::Fork, 0, 1), Event::sync(Op::Fork, 0, 2),
                               Event::read(1, 0x100, 8), Event::read(0, 0x100, 8)};
  for (uint64_t other : {0x118u, 0x128u}) {
    events.push_back(dirty_evictors ? Event::write(0, other, 8) : Event::read(0, other, 8));
  }
  events.push_back(Event::read(2, 0x100, 8));   // refilled: LASTWRITE, kept in R
  events.push_back(Event::write(0, 0x100, 8));  // races with the reads of T1 and T2 (8)
  events.push_back(Event::write(1, 0x118, 8));  // on chip: races with T0 (set 1 again; 8)
  return events;
}

TEST(EngineEviction, EvictedPoolLineSpillsItsClockAndMatchesDjit) {
  for (bool dirty : {false, true}) {
    for (unsigned stall : {0u, 30u}) {
      const EvictionRun run = run_events(evicted_shared_line(dirty), stall, 7 + stall);
      EXPECT_EQ(run.golden, run.engine) << "dirty evictors " << dirty << " stall " << stall;
      EXPECT_EQ(run.engine.size(), 16u);
      // Only one clock was ever allocated (no entry was taken from another
      // granule): the one spill is the eviction's.
      EXPECT_EQ(run.stats.read_vc_spills, 1u);
      EXPECT_EQ(run.stats.records_by_reason[5], 1u);
      EXPECT_GE(run.stats.writebacks, 1u);
    }
  }
}

// After the eviction spill the entry is free: a READ SHARE on another
// granule of the set takes it without spilling anything, and the evicted
// line, back in the cache, is still checked exactly against its reads.
TEST(EngineEviction, FreedEntryIsTakenWithoutASecondSpill) {
  std::vector<Event> events = {Event::write(0, 0x100, 8), Event::write(0, 0x118, 8), Event::sync(Op::Fork, 0, 1),
                               Event::read(1, 0x100, 8),  Event::read(0, 0x100, 8),  // entry 1: 0x100
                               Event::read(0, 0x128, 8),                             // evicts 0x118 (clean)
                               Event::read(0, 0x130, 8),                             // evicts 0x100: spill
                               Event::read(1, 0x118, 8),  Event::read(0, 0x118, 8),  // READ SHARE: free entry
                               Event::write(1, 0x100, 8),                            // LASTWRITE: race with T0
                               Event::write(1, 0x118, 8)};                           // EVERYTHING: race with T0
  const EvictionRun run = run_events(events, 0, 3);
  EXPECT_EQ(run.golden, run.engine);
  EXPECT_EQ(run.engine.size(), 16u);
  EXPECT_EQ(run.stats.read_vc_spills, 1u);
}

}  // namespace
}  // namespace raceaccel::sim
