// Shared by the fuzz targets: a trace a reader accepts must be checked
// identically by FastTrack and the golden DJIT+ (same byte, first racing
// event and kind), and neither may crash, hang or throw anything but a
// CapacityError. DJIT+ keeps state per byte, so traces that touch more than
// kFuzzAccessBudget bytes in all are only read, not checked (a budget of the
// harness, against libFuzzer's memory limit, not a property of the input).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <vector>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"

namespace raceaccel {

inline constexpr uint64_t kFuzzAccessBudget = uint64_t{1} << 20;

inline void check_detectors_agree(const std::vector<Event>& events) {
  uint64_t touched = 0;
  for (const Event& e : events) {
    if (is_access(e.op)) touched += e.size;
  }
  if (touched > kFuzzAccessBudget) return;
  try {
    FastTrackDetector fast;
    DjitDetector golden;
    for (uint64_t i = 0; i < events.size(); ++i) {
      fast.process(events[i], i);
      golden.process(events[i], i);
    }
    auto keys = [](const std::vector<Race>& races) {
      std::vector<std::tuple<uint64_t, uint64_t, RaceKind>> out;
      for (const Race& r : races) out.emplace_back(r.addr, r.event, r.kind);
      std::sort(out.begin(), out.end());
      return out;
    };
    if (keys(fast.races()) != keys(golden.races())) std::abort();
  } catch (const CapacityError&) {
  }
}

}  // namespace raceaccel
