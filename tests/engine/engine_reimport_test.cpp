// Re-import on the Verilated check engine (docs/kernel-interface.md,
// "Re-import"): the protocol core hands host-owned lines back with op 7
// import-line, and the engine must then decide exactly what DJIT+ decides.
// The configurations are the ones where re-import changes behaviour: a
// 2 x 2 cache with a 2-entry read-VC pool (imports miss, evict, fill and
// take pool entries from other lines), 4 slots for up to 12 threads (lines
// go to the host for slotless threads and come back through recycled
// slots), answers every few commands (the host hears of escalations early,
// so lines go back often) and random memory latency and back-pressure on
// the record outputs. Its own executable, linking two models only:
// Verilated models are slow to build.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>
#include <string>

#include "../common/random_trace_options.hpp"
#include "Vengine_fewslots.h"
#include "Vengine_tinycache.h"
#include "detect/djit.hpp"
#include "engine_checker.hpp"
#include "engine_models.hpp"
#include "gen/generator.hpp"

namespace raceaccel::sim {
namespace {

GeneratorOptions trace(uint64_t seed) { return test::random_trace_options(seed, 1500, 3000); }

struct Totals {
  uint64_t reimports = 0, with_clock = 0, on_chip = 0, accesses = 0;
};

template <typename Model>
void expect_exact(EngineConfig cfg, uint64_t seed, const std::string& what, Totals& totals) {
  const GeneratorOptions o = trace(seed);
  TraceGenerator generator(o);
  DjitDetector golden;
  EngineChecker<Model> engine(cfg);
  Event e;
  for (uint64_t index = 0; generator.next(e); ++index) {
    golden.process(e, index);
    engine.process(e, index);
  }
  engine.finish();
  const offload::ProtocolStats& s = engine.stats().protocol;
  ASSERT_EQ(keys(golden.races()), keys(engine.races()))
      << what << ", seed " << seed << ", " << o.threads << " threads, answers every " << cfg.answer_every
      << " commands, " << s.reimports << " lines re-imported";
  if (!cfg.reimport) {
    EXPECT_EQ(s.reimports, 0u);
  }
  totals.reimports += s.reimports;
  totals.with_clock += s.reimported_read_clocks;
  totals.on_chip += s.on_chip();
  totals.accesses += s.access_commands;
}

// Answering every 1, 16 or 256 commands; back-pressure 0–40 %.
template <typename Model>
Totals run_suite(EngineConfig base, const char* name, bool reimport, uint64_t seed0, int seeds) {
  Totals totals;
  for (uint64_t seed = seed0; seed < seed0 + static_cast<uint64_t>(seeds); ++seed) {
    EngineConfig cfg = base;
    cfg.reimport = reimport;
    cfg.seed = seed * 7 + 3;
    cfg.answer_every = std::array<unsigned, 3>{1, 16, 256}[seed % 3];
    cfg.stall_percent = static_cast<unsigned>(seed % 5) * 10;
    cfg.max_mem_latency = 1 + static_cast<unsigned>(seed % 4);
    expect_exact<Model>(cfg, seed, name, totals);
    if (::testing::Test::HasFatalFailure()) break;
  }
  std::printf("  %s, re-import %s: %llu lines re-imported (%llu with a read clock), %llu of %llu accesses on chip\n",
              name, reimport ? "on" : "off", static_cast<unsigned long long>(totals.reimports),
              static_cast<unsigned long long>(totals.with_clock), static_cast<unsigned long long>(totals.on_chip),
              static_cast<unsigned long long>(totals.accesses));
  return totals;
}

TEST(EngineReimport, TinyCacheWithTwoEntryPoolMatchesDjit) {
  const Totals on = run_suite<Vengine_tinycache>(tinycache_model(), "2x2 cache, 2-entry pool", true, 0xE1A0, 36);
  EXPECT_GT(on.reimports, 400u) << "lines must go back to the engine for this test to mean anything";
  EXPECT_GT(on.with_clock, 10u) << "imports must take pool entries";
  const Totals off = run_suite<Vengine_tinycache>(tinycache_model(), "2x2 cache, 2-entry pool", false, 0xE1A0, 36);
  EXPECT_GT(on.on_chip, off.on_chip) << "re-import must decide more accesses on chip";
}

TEST(EngineReimport, FourSlotsForTwelveThreadsMatchDjit) {
  const Totals on =
      run_suite<Vengine_fewslots>(fewslots_model(), "4 slots, 16x2 cache, 4-entry pool", true, 0xE1B0, 24);
  EXPECT_GT(on.reimports, 200u);
  EXPECT_GT(on.with_clock, 10u);
}

// Every synchronization as set-row (no sync-object store): the rows the
// import's epochs are checked against come only from the host's mirror.
TEST(EngineReimport, WithoutSyncObjectsMatchesDjit) {
  EngineConfig cfg = tinycache_model();
  cfg.objects = 0;
  const Totals on = run_suite<Vengine_tinycache>(cfg, "2x2 cache, set-row sync", true, 0xE1C0, 12);
  EXPECT_GT(on.reimports, 150u);
}

}  // namespace
}  // namespace raceaccel::sim
