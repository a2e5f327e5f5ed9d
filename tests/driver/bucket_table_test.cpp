// The metadata bucket table (docs/kernel-interface.md, "Metadata bucket
// table") on the software model, whose lines outside its cache live in the
// table by the kernel's rules: tiny tables (2–16 buckets of 1, 2 or 4 ways)
// under a 2 × 2 cache, so that write-backs fill every way and spill, the
// spill filters fill up and fills of granules that were (or, by a filter
// collision, may have been) spilled come back as placeholders the host
// answers. Every trace must give exactly DJIT+'s races.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>

#include "../common/race_keys.hpp"
#include "../common/random_trace_options.hpp"
#include "detect/djit.hpp"
#include "driver/software/software_device.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

struct Totals {
  uint64_t traces = 0, races = 0, spills = 0, writebacks = 0, reimports = 0;
};

void run_trace(uint64_t seed, unsigned bucket_ways, unsigned bucket_bits, size_t batch_words, unsigned read_vcs,
               Totals& t) {
  driver::DeviceOptions options;
  options.software_slots = 8;
  options.software_clock_bits = 16;
  options.software_read_vcs = read_vcs;
  options.software_objects = 4;
  auto device = driver::make_software_device(options, {2, 2, bucket_ways});
  offload::OffloadOptions oo;
  oo.batch_words = batch_words;
  oo.bucket_bits = bucket_bits;
  offload::OffloadChecker checker(*device, oo);
  DjitDetector golden;
  TraceGenerator generator(random_trace_options(seed, 1500, 3000));
  Event e;
  for (uint64_t index = 0; generator.next(e); ++index) {
    golden.process(e, index);
    checker.process(e, index);
  }
  checker.finish();
  const std::string what = std::to_string(1u << bucket_bits) + " buckets of " + std::to_string(bucket_ways) +
                           " ways, batches of " + std::to_string(batch_words) + ", pool " + std::to_string(read_vcs) +
                           ", seed " + std::to_string(seed);
  ASSERT_EQ(race_keys(golden.races()), race_keys(checker.races())) << what;
  std::vector<Race> g = golden.races(), d = checker.races();
  const auto by_key = [](const Race& a, const Race& b) {
    return std::tie(a.addr, a.event) < std::tie(b.addr, b.event);
  };
  std::sort(g.begin(), g.end(), by_key);
  std::sort(d.begin(), d.end(), by_key);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i].kind == RaceKind::ReadWrite) continue;  // any concurrent reader is a correct answer
    EXPECT_EQ(std::tie(g[i].prev_tid, g[i].prev_clock), std::tie(d[i].prev_tid, d[i].prev_clock)) << what;
  }
  const offload::OffloadStats st = checker.stats();
  ++t.traces;
  t.races += g.size();
  t.spills += st.spills;
  t.writebacks += st.device.writebacks;
  t.reimports += st.reimports;
}

TEST(BucketTable, TinyTablesOfEveryWayCountMatchDjit) {
  Totals t;
  uint64_t seed = 0xB0C7'0000;
  for (const unsigned ways : {1u, 2u, 4u}) {
    for (const unsigned bits : {1u, 2u, 4u}) {
      for (const size_t batch : {size_t{16}, size_t{1024}}) {
        for (int i = 0; i < 3; ++i) {
          run_trace(seed++, ways, bits, batch, i == 2 ? 0u : 2u, t);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
  std::printf("  %llu traces, %llu races, %llu write-backs, %llu bucket spills, %llu lines re-imported\n",
              static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
              static_cast<unsigned long long>(t.writebacks), static_cast<unsigned long long>(t.spills),
              static_cast<unsigned long long>(t.reimports));
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.spills, t.traces * 10) << "tiny tables must spill constantly";
  EXPECT_GT(t.reimports, 0u) << "spilled lines must go back and be written back again";
}

}  // namespace
}  // namespace raceaccel::test
