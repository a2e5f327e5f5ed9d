// A C++ functional model of rac_kernel: what one launch does to the
// checker's state and to the record buffers, with no timing.
//
// It follows the engine's protocol (docs/hardware.md) with an unbounded
// on-chip store instead of the cache, the sync-object store of `objects`
// clocks (ops 4–6: acquire, release, load-object) and the read-VC pool of
// `shape.read_vcs` clocks (direct-mapped by the engine's XOR fold, tagged by
// granule; allocation, touch, free and spill as rac_check_engine does them,
// LASTWRITE included): per-byte FastTrack epochs over the slot clock rows; a
// READ SHARE the pool cannot take, a forced command, or any command on a
// host-owned (INSOFTWARE) line escalates with the line's state (and its
// read clock when the pool holds it); a full free of a host-owned line
// reclaims it. It never evicts, so it never spills a line and never touches
// the bucket table (it still checks the table's arguments).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "driver/device.hpp"
#include "driver/records.hpp"
#include "driver/software/software_buffer.hpp"

namespace raceaccel::driver {

struct BatchArguments {
  uint64_t commands = 0;
  uint32_t command_words = 0;
  uint32_t flags = 0;
  uint64_t races = 0;
  uint32_t race_capacity = 0;
  uint64_t escalations = 0;
  uint32_t esc_capacity = 0;
  uint64_t buckets = 0;
  uint32_t bucket_bits = 0;
};

struct BatchResult {
  uint32_t status = 0;
  uint32_t races_written = 0;
  uint32_t escalations_written = 0;
  uint32_t words_done = 0;
};

class SoftwareKernel {
 public:
  SoftwareKernel(const LineShape& shape, unsigned objects);
  BatchResult run(const BatchArguments& args, SoftwareMemory& memory);
  const Statistics& statistics() const { return stats_; }
  const LineShape& shape() const { return shape_; }
  unsigned objects() const { return static_cast<unsigned>(objects_.size()); }

 private:
  struct Output {
    std::span<std::byte> races, escalations;
    uint32_t races_written = 0, escalations_written = 0;
  };
  bool arguments_valid(const BatchArguments& args, SoftwareMemory& memory, std::span<std::byte>& commands,
                       Output& out) const;
  // One entry of the read-VC pool: {valid, granule} tag and the clock.
  struct ReadClock {
    bool valid = false;
    uint64_t granule = 0;
    std::vector<uint32_t> lanes;
  };
  // A read, write or free on one granule, exactly as the engine's S3 stage.
  void execute(const CommandWord& c, uint64_t word, Output& out);
  void acquire(const CommandWord& c);
  void release(const CommandWord& c);
  void escalate(uint64_t word, uint64_t granule, unsigned reason, const Line& line, const ReadClock* clock,
                Output& out);
  bool covers(unsigned slot, uint32_t epoch_slot, uint32_t epoch_clock) const;
  size_t pool_index(uint64_t granule) const;
  void reset_state();

  LineShape shape_;
  std::vector<std::vector<uint32_t>> rows_;     // the slot clock rows
  std::vector<std::vector<uint32_t>> objects_;  // the sync-object store (zero after a clear)
  std::unordered_map<uint64_t, Line> lines_;    // absent: the zero line (fresh, on chip)
  std::vector<ReadClock> pool_;                 // the read-VC pool (empty: none)
  Statistics stats_;
};

}  // namespace raceaccel::driver
