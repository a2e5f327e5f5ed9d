// Shared by the fuzz targets: a trace a reader accepts must be checked
// identically by FastTrack and the golden DJIT+ (same byte, first racing
// event and kind), and neither may crash, hang or throw anything but a
// CapacityError. DJIT+ keeps state per byte, so traces whose accesses and
// atomic operations touch more than kFuzzAccessBudget bytes in all are only
// read, not checked (a budget of the
// harness, against libFuzzer's memory limit, not a property of the input).
#pragma once

#include <cstdlib>
#include <vector>

#include "../common/race_keys.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"

namespace raceaccel {

inline constexpr uint64_t kFuzzAccessBudget = uint64_t{1} << 20;

inline void check_detectors_agree(const std::vector<Event>& events) {
  uint64_t touched = 0;
  for (const Event& e : events) {
    if (is_access(e.op) || is_atomic(e.op)) touched += e.size;  // DJIT+ keeps state per byte of both
  }
  if (touched > kFuzzAccessBudget) return;
  try {
    FastTrackDetector fast;
    DjitDetector golden;
    for (uint64_t i = 0; i < events.size(); ++i) {
      fast.process(events[i], i);
      golden.process(events[i], i);
    }
    if (test::race_keys(fast.races()) != test::race_keys(golden.races())) std::abort();
  } catch (const CapacityError&) {
  }
}

}  // namespace raceaccel
