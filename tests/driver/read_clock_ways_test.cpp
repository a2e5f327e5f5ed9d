// Several read clocks per line (register map version 6, cap_read_vc_ways >
// 1; docs/kernel-interface.md, "Several read clocks per line") on the
// software model against DJIT+: tiny set-associative pools (1–2 sets of 2 or
// 4 ways) under tiny caches and bucket tables, with traces whose words are
// read by different threads field by field and partially, so that lines
// hold several clocks, clocks split, ways are displaced and spilled with
// their bytes, evicted lines spill every clock, escalations carry one clock
// and spill the others, and re-import sends lines with several clocks back
// (op 7 and op 8). Every trace must give exactly DJIT+'s races.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../common/random_trace_options.hpp"
#include "driver/software/software_device.hpp"
#include "gen/generator.hpp"
#include "golden_comparison.hpp"
#include "read_clock_traces.hpp"

namespace raceaccel::test {
namespace {

struct Shape {
  unsigned pool, ways;
  driver::CacheShape cache;
};

struct Totals {
  uint64_t traces = 0, races = 0, accesses = 0, on_chip = 0, clock_spills = 0, reimports = 0, more_clocks = 0;
  uint64_t partial_spills = 0, lastwrite = 0;
};

void run(const Shape& s, size_t batch, uint64_t seed, bool field_trace, Totals& t, uint64_t words = 0) {
  driver::DeviceOptions o;
  o.software_slots = 8;
  o.software_clock_bits = 16;
  o.software_read_vcs = s.pool;
  o.software_read_vc_ways = s.ways;
  o.software_objects = 4;
  auto device = driver::make_software_device(o, s.cache);
  offload::OffloadOptions oo;
  oo.batch_words = batch;
  oo.bucket_bits = 2;
  GoldenRun r;
  if (field_trace) {
    FieldReadTrace trace(seed, 2 + static_cast<uint32_t>(seed % 7), words != 0 ? words : 3 + seed % 4, 1500);
    r = run_with_golden(*device, oo, [&](Event& e) { return trace.next(e); });
  } else {
    TraceGenerator generator(random_trace_options(seed, 1000, 2500));
    r = run_with_golden(*device, oo, [&](Event& e) { return generator.next(e); });
  }
  expect_same_races(r, "pool " + std::to_string(s.pool) + " of " + std::to_string(s.ways) + " ways, cache " +
                           std::to_string(s.cache.sets) + " x " + std::to_string(s.cache.ways) + ", batches of " +
                           std::to_string(batch) + (field_trace ? ", field trace" : ", generated trace") + ", seed " +
                           std::to_string(seed));
  ++t.traces;
  t.races += r.golden.size();
  t.accesses += r.stats.access_commands;
  t.on_chip += r.stats.on_chip();
  t.clock_spills += r.stats.read_clock_spills;
  t.reimports += r.stats.reimports;
  t.more_clocks += r.stats.reimported_more_clocks;
  t.partial_spills += r.stats.partial_read_clock_spills;
  t.lastwrite += r.stats.causes[static_cast<size_t>(offload::EscalationCause::LastWrite)];
}

const std::vector<Shape> kShapes{
    {2, 2, {2, 2, 4}},  // one pool set of 2 ways under a 2 × 2 cache
    {4, 2, {2, 2, 1}},  // two pool sets of 2 ways, one-way buckets (bucket spills)
    {4, 4, {4, 2, 4}},  // one pool set of 4 ways
    {8, 4, {}},         // no cache: two sets of 4 ways, nothing evicted
};

TEST(ReadClockWays, TinyPoolsMatchDjit) {
  Totals t;
  uint64_t seed = 0x5EAD'0000;
  for (const Shape& s : kShapes) {
    for (const size_t batch : {size_t{1}, size_t{16}, size_t{1024}}) {
      for (int i = 0; i < 4; ++i) {
        run(s, batch, seed++, i != 3, t);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  std::printf(
      "  %llu traces, %llu races, %llu of %llu accesses on chip, %llu read-clock spills, %llu lines "
      "re-imported, %llu further clocks re-imported (op 8)\n",
      static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
      static_cast<unsigned long long>(t.on_chip), static_cast<unsigned long long>(t.accesses),
      static_cast<unsigned long long>(t.clock_spills), static_cast<unsigned long long>(t.reimports),
      static_cast<unsigned long long>(t.more_clocks));
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.clock_spills, t.traces * 5) << "tiny pools must displace and evict clocks constantly";
  EXPECT_GT(t.more_clocks, 0u) << "lines with several clocks must go back with op 8";
}

// The same field traces decide more on chip with several clocks per line
// than with one (the version-5 rules), and both exactly.
TEST(ReadClockWays, SeveralClocksDecideMoreOnChip) {
  Totals one, several;
  for (uint64_t seed = 0x5EAD'1000; seed < 0x5EAD'1008; ++seed) {
    run({4, 1, {}}, 16, seed, true, one);
    run({4, 4, {}}, 16, seed, true, several);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("  on chip: one clock per line %llu, four %llu, of %llu accesses\n",
              static_cast<unsigned long long>(one.on_chip), static_cast<unsigned long long>(several.on_chip),
              static_cast<unsigned long long>(one.accesses));
  EXPECT_EQ(one.accesses, several.accesses);
  EXPECT_GT(several.on_chip, one.on_chip);
}

// Rounds that make partial clocks matter: two threads read a word
// concurrently (a clock), filler reads evict its line (the clock goes to
// the host), two other threads read it concurrently again (a partial clock)
// and then release a lock, more filler evicts it again (reason 6), and a
// writer takes the lock and writes a field of the word: ordered after the
// second readers, concurrent with the first ones unless it is one of them.
// The race with the first readers is only in the host's joined clock.
// Choices are random (threads, fields, filler, whether the writer locks).
// Partial clocks (reason 6; docs/kernel-interface.md, "Partial read
// clocks"): a LASTWRITE byte (its clock went to the host) read concurrently
// with the read kept in R starts a clock of the reads since the spill
// instead of going to the host; writes of its bytes go to the host, and
// when it leaves the pool the host joins it into the clock it keeps. Spill
// rounds and field traces over more words than a 2 × 2 or 4 × 2 cache
// holds, against DJIT+, with partial clocks made and spilled. Mutants
// caught: the host replacing its clock with a reason-6 one instead of
// joining; the escalation record carrying a partial clock as the bytes'
// whole history.
TEST(ReadClockWays, PartialClocksAfterSpillsMatchDjit) {
  Totals t;
  uint64_t seed = 0x5EAD'2000;
  const std::vector<Shape> shapes{
      {2, 2, {2, 2, 4}},  // one pool set of 2 ways
      {4, 4, {2, 2, 4}},  // one pool set of 4 ways
      {8, 2, {4, 2, 1}},  // four pool sets of 2 ways, one-way buckets
  };
  for (const Shape& s : shapes) {
    for (const size_t batch : {size_t{1}, size_t{16}, size_t{1024}}) {
      for (int i = 0; i < 4; ++i) {
        driver::DeviceOptions o;
        o.software_slots = 8;
        o.software_clock_bits = 16;
        o.software_read_vcs = s.pool;
        o.software_read_vc_ways = s.ways;
        o.software_objects = 4;
        auto device = driver::make_software_device(o, s.cache);
        offload::OffloadOptions oo;
        oo.batch_words = batch;
        oo.bucket_bits = 2;
        SpillRoundsTrace trace(seed, 4 + static_cast<uint32_t>(seed % 5), 150);
        const GoldenRun r = run_with_golden(*device, oo, [&](Event& e) { return trace.next(e); });
        expect_same_races(r, "spill rounds, pool " + std::to_string(s.pool) + " of " + std::to_string(s.ways) +
                                 " ways, batches of " + std::to_string(batch) + ", seed " + std::to_string(seed));
        if (::testing::Test::HasFatalFailure()) return;
        ++seed;
        ++t.traces;
        t.races += r.golden.size();
        t.accesses += r.stats.access_commands;
        t.on_chip += r.stats.on_chip();
        t.clock_spills += r.stats.read_clock_spills;
        t.partial_spills += r.stats.partial_read_clock_spills;
        const uint64_t words = 24 + seed % 24;
        run(s, batch, seed++, true, t, words);  // and a field trace
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  std::printf("  %llu traces, %llu races, %llu of %llu accesses on chip, %llu read-clock spills (%llu partial)\n",
              static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
              static_cast<unsigned long long>(t.on_chip), static_cast<unsigned long long>(t.accesses),
              static_cast<unsigned long long>(t.clock_spills), static_cast<unsigned long long>(t.partial_spills));
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.partial_spills, t.traces) << "LASTWRITE lines read concurrently must start partial clocks";
}

}  // namespace
}  // namespace raceaccel::test
