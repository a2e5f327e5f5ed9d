// `raceaccel sweep`'s grid (docs/cli.md): the shape knobs a sweep may vary,
// their defaults and ranges, `--grid NAME=V1,V2,...` parsed, and the
// Cartesian product of the grids expanded into points.
//
// The knobs are those of the software kernel model and of the offload
// engine: the modelled kernel's slots, clock width, metadata cache (sets ×
// ways), read-VC pool and sync-object store (driver::DeviceOptions,
// driver::CacheShape), and the host's bucket table and batch size
// (offload::OffloadOptions). Whether a combination is a shape the kernel
// can have is the device's to say (make_software_device's limits); the
// grid only checks names and numbers.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace raceaccel {

struct SweepKnob {
  std::string_view name;
  uint64_t fallback;  // the value when the knob is not gridded (check --backend software's)
  uint64_t lo, hi;    // accepted values (the kernel's own limits may be narrower per point)
  std::string_view meaning;
};

// Every knob, in CSV column order.
std::span<const SweepKnob> sweep_knobs();
// The knob's index in sweep_knobs(); aliases (read_vcs for pool) included.
// Throws GridError for an unknown name.
size_t sweep_knob_index(std::string_view name);

// A bad --grid: a usage error (exit 2) with this message.
class GridError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Grid {
  size_t knob = 0;  // index in sweep_knobs()
  std::vector<uint64_t> values;
};

// One --grid argument, "NAME=V1,V2,...": decimal values, no duplicates.
// `what` names the argument in messages ("--grid", or "SHAPE word" for
// `raceaccel shape`).
Grid parse_grid(std::string_view text, std::string_view what = "--grid");

// One point of the sweep: a value for every knob, indexed like sweep_knobs().
using SweepPoint = std::vector<uint64_t>;

// The product of the grids, the first grid varying slowest; every other
// knob at its fallback. Throws GridError when a knob is gridded twice.
std::vector<SweepPoint> expand_grids(const std::vector<Grid>& grids);

// "slots=64 sets=4096 ..." naming the gridded knobs of a point.
std::string describe_point(const SweepPoint& point, const std::vector<Grid>& grids);

}  // namespace raceaccel
