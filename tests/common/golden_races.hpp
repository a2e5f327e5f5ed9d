// A detector's races against the golden detector's, for the differential
// unit tests: the same racing bytes, events and kinds (race_keys.hpp), and
// wherever the earlier access is a write, which only one access can be, the
// same race in every field (thread, clock and site of both accesses). For an
// earlier read any concurrent reader is a correct answer.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "race_keys.hpp"

namespace raceaccel::test {

// AssertionResult formats each value on its own, so a std::hex would not
// carry over to the next one.
inline std::string hex_of(uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

inline ::testing::AssertionResult same_races_as_golden(const std::vector<Race>& golden_races,
                                                       const std::vector<Race>& other_races) {
  const std::vector<RaceKey> golden_keys = race_keys(golden_races), other_keys = race_keys(other_races);
  if (golden_keys != other_keys) {
    const auto [g, o] = std::mismatch(golden_keys.begin(), golden_keys.end(), other_keys.begin(), other_keys.end());
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << golden_keys.size() << " racing bytes against " << other_keys.size();
    if (g != golden_keys.end())
      failure << "; first golden one not matched: byte " << hex_of(std::get<0>(*g)) << ", event " << std::get<1>(*g);
    if (o != other_keys.end())
      failure << "; first other one not matched: byte " << hex_of(std::get<0>(*o)) << ", event " << std::get<1>(*o);
    return failure;
  }
  std::vector<Race> g = golden_races, o = other_races;
  const auto by_key = [](const Race& a, const Race& b) {
    return std::tie(a.addr, a.event) < std::tie(b.addr, b.event);
  };
  std::sort(g.begin(), g.end(), by_key);
  std::sort(o.begin(), o.end(), by_key);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i].kind != RaceKind::ReadWrite && !(g[i] == o[i])) {
      return ::testing::AssertionFailure()
             << "race " << i << " (byte " << hex_of(g[i].addr) << ", event " << g[i].event
             << ") names another earlier write: golden T" << g[i].prev_tid << "@" << g[i].prev_clock << " site "
             << g[i].prev_site << ", other T" << o[i].prev_tid << "@" << o[i].prev_clock << " site " << o[i].prev_site;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace raceaccel::test
