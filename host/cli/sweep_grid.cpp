#include "cli/sweep_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "cli/backend_check.hpp"

namespace raceaccel {
namespace {

// The ranges stop where one point would need more memory than a sweep of
// several parallel points can afford: the bucket table is 2^bucket_bits ×
// 4 ways × 128 bytes of device memory, held twice by the software model
// (2^20: 2 × 512 MiB), batches as for check. bucket_bits defaults to the
// card's table (offload::kCardBucketBits): the sweep models a card.
constexpr std::array kKnobs{
    SweepKnob{"slots", 64, 1, 256, "hardware thread slots (cap_slots)"},
    SweepKnob{"clock_bits", 32, 1, 32, "bits per clock lane (cap_clock_bits)"},
    SweepKnob{"sets", 0, 0, 65536, "metadata cache sets, a power of two (0: no cache, unbounded on-chip store)"},
    SweepKnob{"ways", 0, 0, 64, "metadata cache ways, a power of two (0 with sets 0)"},
    SweepKnob{"pool", 16, 0, 65536, "read-VC pool entries, 0 or a power of two (cap_read_vcs)"},
    SweepKnob{"objects", 64, 0, 65536, "sync-object store entries (cap_objects)"},
    SweepKnob{"bucket_bits", offload::kCardBucketBits, 1, kMaxBucketBits,
              "bucket table of 2^bits buckets in device memory"},
    SweepKnob{"batch_words", 64 * 1024, 1, kMaxBatchWords, "command words per launch"},
    SweepKnob{"reimport", 1, 0, 1, "1: host lines are handed back to the device (import-line); 0: ablation"},
    SweepKnob{"pool_ways", 1, 1, 8,
              "read-VC pool ways = read clocks per line, a power of two <= pool (cap_read_vc_ways)"},
    SweepKnob{"atomics", 1, 0, 1, "1: atomic accesses are checked on chip (ops 9-10); 0: on the host (ablation)"},
    SweepKnob{"bucket_ways", 4, 1, 8, "ways per metadata bucket, a power of two (cap_bucket_ways)"},
    // Last: the CSV's `latency` column, after the shape's columns.
    SweepKnob{"latency", 8, 1, 1000, "memory latency in cycles (fixed; the cycle estimate's and the Verilator bus's)"},
};

}  // namespace

std::span<const SweepKnob> sweep_knobs() { return kKnobs; }

size_t sweep_knob_index(std::string_view name) {
  if (name == "read_vcs") name = "pool";
  for (size_t i = 0; i < kKnobs.size(); ++i) {
    if (kKnobs[i].name == name) return i;
  }
  std::string names;
  for (const SweepKnob& k : kKnobs) names += fmt::format("{}{}", names.empty() ? "" : ", ", k.name);
  throw GridError(fmt::format("unknown knob '{}' (expected one of {}; read_vcs is pool)", name, names));
}

Grid parse_grid(std::string_view text, std::string_view what) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    throw GridError(fmt::format("{} {}: expected NAME=V1,V2,...", what, text));
  }
  Grid grid;
  grid.knob = sweep_knob_index(text.substr(0, eq));
  const SweepKnob& knob = kKnobs[grid.knob];
  std::string_view list = text.substr(eq + 1);
  if (list.empty()) throw GridError(fmt::format("{} {}: the list of values is empty", what, text));
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value, 10);
    if (item.empty() || ec == std::errc::invalid_argument || end != item.data() + item.size()) {
      throw GridError(fmt::format("{} {}: '{}' is not an unsigned decimal integer", what, text, item));
    }
    if (ec == std::errc::result_out_of_range || value < knob.lo || value > knob.hi) {
      throw GridError(
          fmt::format("{} {}: {} is out of range for {} [{} - {}]", what, text, item, knob.name, knob.lo, knob.hi));
    }
    if (std::find(grid.values.begin(), grid.values.end(), value) != grid.values.end()) {
      throw GridError(fmt::format("{} {}: {} is listed twice", what, text, value));
    }
    grid.values.push_back(value);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return grid;
}

std::vector<SweepPoint> expand_grids(const std::vector<Grid>& grids) {
  SweepPoint base;
  for (const SweepKnob& k : kKnobs) base.push_back(k.fallback);
  std::vector<SweepPoint> points{base};
  for (size_t g = 0; g < grids.size(); ++g) {
    for (size_t h = 0; h < g; ++h) {
      if (grids[h].knob == grids[g].knob) {
        throw GridError(fmt::format("--grid {} is given twice", kKnobs[grids[g].knob].name));
      }
    }
    std::vector<SweepPoint> next;
    for (const SweepPoint& p : points) {
      for (uint64_t v : grids[g].values) {
        next.push_back(p);
        next.back()[grids[g].knob] = v;
      }
    }
    points = std::move(next);
  }
  return points;
}

std::string describe_point(const SweepPoint& point, const std::vector<Grid>& grids) {
  std::string out;
  for (const Grid& g : grids) {
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", kKnobs[g.knob].name, point[g.knob]);
  }
  return out.empty() ? "defaults" : out;
}

}  // namespace raceaccel
