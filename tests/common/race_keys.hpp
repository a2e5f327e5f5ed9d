// What differential tests compare: per racing byte, the byte, the event of
// the second access and the kind, sorted. The earlier access's thread and
// clock are left out: for read-write races any concurrent reader is a
// correct answer, and detectors may name different ones.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "detect/race.hpp"

namespace raceaccel::test {

using RaceKey = std::tuple<uint64_t, uint64_t, int>;

inline std::vector<RaceKey> race_keys(const std::vector<Race>& races) {
  std::vector<RaceKey> out;
  out.reserve(races.size());
  for (const Race& r : races) out.emplace_back(r.addr, r.event, static_cast<int>(r.kind));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace raceaccel::test
