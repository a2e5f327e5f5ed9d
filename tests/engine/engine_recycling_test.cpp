// Slot recycling on the Verilated check engine (docs/driver.md, "Slots and
// their recycling"): thousands of short-lived threads on the 4-slot,
// 16-bit-clock model, with random memory latency and back-pressure, must
// report exactly what DJIT+ reports (earlier writes by thread and clock).
// Its own executable, linking one model only: Verilated models are slow to
// build.
#include <gtest/gtest.h>

#include <cstdio>

#include "../common/short_lived_trace.hpp"
#include "Vengine_fewslots.h"
#include "detect/djit.hpp"
#include "engine_checker.hpp"
#include "engine_models.hpp"

namespace raceaccel::sim {
namespace {

TEST(EngineSlotRecycling, ShortLivedThreadsOnFourSlotsMatchDjit) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    test::ShortLivedOptions o;
    o.seed = seed;
    o.threads = 1500;
    o.live = 3 + static_cast<uint32_t>(seed);
    test::ShortLivedTrace trace(o);
    EngineConfig cfg = fewslots_model();
    cfg.seed = seed * 31 + 7;
    cfg.stall_percent = static_cast<unsigned>(seed * 10);
    cfg.max_mem_latency = 1 + static_cast<unsigned>(seed);
    if (seed == 2) cfg.objects = 0;  // every synchronization as set-row
    DjitDetector golden;
    EngineChecker<Vengine_fewslots> engine(cfg);
    Event e;
    uint64_t index = 0;
    while (trace.next(e)) {
      golden.process(e, index);
      engine.process(e, index);
      ++index;
    }
    engine.finish();
    EXPECT_EQ(keys(golden.races()), keys(engine.races())) << "seed " << seed;
    const offload::ProtocolStats& s = engine.stats().protocol;
    std::printf("  seed %llu: %llu events, %zu races, %llu slot recycles, %llu of %llu accesses on chip\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(index), golden.races().size(),
                static_cast<unsigned long long>(s.slot_recycles), static_cast<unsigned long long>(s.on_chip()),
                static_cast<unsigned long long>(s.access_commands));
    EXPECT_GT(golden.races().size(), 50u);
    EXPECT_GT(s.slot_recycles, 200u);
  }
}

}  // namespace
}  // namespace raceaccel::sim
