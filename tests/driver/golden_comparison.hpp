// The offload path against the golden detector, for the driver tests: both
// run over one event stream, and their races must be the same racing bytes,
// events and kinds; for an earlier write the same thread, clock and site
// (a read-write race may name any concurrent reader, so there only the
// current access is compared).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "../common/race_keys.hpp"
#include "detect/djit.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {

struct GoldenRun {
  std::vector<Race> golden, offload;
  offload::OffloadStats stats;
};

// Feeds every event next_event(e) yields to DJIT+ and to an offload checker
// on device (with options), then finishes the checker.
template <typename Source>
GoldenRun run_with_golden(driver::Device& device, const offload::OffloadOptions& options, Source&& next_event) {
  offload::OffloadChecker checker(device, options);
  DjitDetector golden;
  Event e;
  for (uint64_t i = 0; next_event(e); ++i) {
    golden.process(e, i);
    checker.process(e, i);
  }
  checker.finish();
  return {golden.races(), checker.races(), checker.stats()};
}

inline void expect_same_races(const GoldenRun& r, const std::string& what) {
  ASSERT_EQ(race_keys(r.golden), race_keys(r.offload)) << what;
  std::vector<Race> g = r.golden, o = r.offload;
  auto by_key = [](const Race& a, const Race& b) { return std::tie(a.addr, a.event) < std::tie(b.addr, b.event); };
  std::sort(g.begin(), g.end(), by_key);
  std::sort(o.begin(), o.end(), by_key);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i].kind == RaceKind::ReadWrite) {
      EXPECT_EQ(std::tie(g[i].tid, g[i].site), std::tie(o[i].tid, o[i].site)) << what << " race " << i;
    } else {
      EXPECT_EQ(g[i], o[i]) << what << " race " << i;
    }
  }
}

}  // namespace raceaccel::test
