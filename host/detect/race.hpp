// What a detector reports: for each byte location, the first access that
// races with an earlier conflicting access (docs/reports.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/event.hpp"

namespace raceaccel {

// Named (earlier access)-(current access).
enum class RaceKind : uint8_t { WriteWrite, WriteRead, ReadWrite };
std::string_view race_kind_name(RaceKind kind);

struct Race {
  uint64_t addr = 0;   // the byte
  uint64_t event = 0;  // index in the trace of the current (second) access
  RaceKind kind = RaceKind::WriteWrite;
  ThreadId tid = 0;  // current access
  uint64_t site = 0;
  ThreadId prev_tid = 0;  // earlier access: thread, its clock (epoch) and site
  uint64_t prev_clock = 0;
  uint64_t prev_site = 0;
  // Which side was an atomic access (AtomicLoad/Store/Rmw); two atomic
  // accesses never race, so at most one of them is set.
  bool atomic = false;
  bool prev_atomic = false;
  bool operator==(const Race&) const = default;
};

// Detector::forget_races for a detector's own list: emptied, and its
// memory given back when a burst of races made it large.
inline void forget_race_list(std::vector<Race>& races) {
  constexpr size_t kKeptCapacity = 4096;
  if (races.capacity() > kKeptCapacity) {
    std::vector<Race>().swap(races);
  } else {
    races.clear();
  }
}

// Detectors cannot go on exactly: a clock or thread count beyond what the
// representation holds. Never wrapped silently; the CLI exits with 70.
class CapacityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace raceaccel
