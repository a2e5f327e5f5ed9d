// A C++ functional model of rac_kernel: what one launch does to the
// checker's state and to the record buffers, with no timing.
//
// It follows the engine's protocol (docs/hardware.md) with an unbounded
// on-chip store instead of the cache, the sync-object store of `objects`
// clocks (ops 4–6: acquire, release, load-object) and the read-VC pool of
// `shape.read_vcs` clocks (direct-mapped by the low bits of the cache set, tagged by
// granule; allocation, touch, free and spill as rac_check_engine does them,
// LASTWRITE included): per-byte FastTrack epochs over the slot clock rows; a
// READ SHARE the pool cannot take, a forced command, or any command on a
// host-owned (INSOFTWARE) line escalates with the line's state (and its
// read clock when the pool holds it); a full free of a host-owned line
// reclaims it. With a cache shape (sets × ways, round-robin replacement as
// rac_repl_state's policy 0) it tracks which granules the cache holds, only
// to emit the eviction spill as the engine does (a victim whose clock is in
// the pool hands it to the host, reason 5); without one (sets 0) nothing is
// ever evicted. The pool entry of a granule is the low bits of its cache set
// (with sets 0: of the set in a cache of read_vcs sets). With a cache the
// lines outside it live in the bucket table in device memory, as on the
// kernel: a dirty victim (one whose line changed, or was imported, since its
// fill: the engine's dirty bit) is written back by the bucket rules, with
// the spill record (reason 4) and the spill filter, and a miss fills from
// the table (docs/kernel-interface.md, "Metadata bucket table"). Without a
// cache lines never leave the model (it still checks the table's
// arguments). Op 7 (import-line) puts a line the host owned back on chip.
//
// With shape.read_vc_ways > 1 (version 6, software model only so far) the
// pool is set-associative: read_vcs / read_vc_ways sets of read_vc_ways
// ways, each entry tagged with a granule and the shared bytes it covers, so
// a line may hold up to read_vc_ways clocks — bytes read by different
// threads, and bytes of one clock split by a partial read — and op 8 adds
// one to an imported line (docs/kernel-interface.md, "Several read clocks
// per line"). With read_vc_ways 1 the model is the RTL's, byte for byte.
//
// Version 7: ops 9 and 10 check the access part of an atomic operation
// against the line's plain history (docs/kernel-interface.md, "Atomic
// accesses on chip"), as the RTL does; without them (`atomics` false) it
// models a kernel with cap_features bit 1 clear.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "driver/device.hpp"
#include "driver/records.hpp"
#include "driver/software/kernel_cycles.hpp"
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

// The metadata cache's geometry, for eviction spills (sets 0: no cache).
struct CacheShape {
  unsigned sets = 0;
  unsigned ways = 0;
  unsigned bucket_ways = 4;  // ways per metadata bucket (cap_bucket_ways)
};

struct BatchResult {
  uint32_t status = 0;
  uint32_t races_written = 0;
  uint32_t escalations_written = 0;
  uint32_t words_done = 0;
};

class SoftwareKernel {
 public:
  // atomics: the kernel executes ops 9 and 10 (cap_features bit 1).
  SoftwareKernel(const LineShape& shape, unsigned objects, CacheShape cache = {}, bool atomics = true);
  BatchResult run(const BatchArguments& args, SoftwareMemory& memory);
  // From now on every batch also estimates the kernel's busy cycles at this
  // memory latency (kernel_cycles.hpp): stat_cycles and stat_busy_cycles.
  void estimate_cycles(double latency);
  const Statistics& statistics() const { return stats_; }
  const LineShape& shape() const { return shape_; }
  const CacheShape& cache() const { return cache_; }
  unsigned objects() const { return static_cast<unsigned>(objects_.size()); }
  bool checks_atomics() const { return atomics_; }

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
    unsigned mask = 0;  // several clocks per line: the shared bytes it covers (0 with one way)
    // Several clocks per line: the reads made since these bytes' clock went
    // to the host (reason 5), not their whole read history. Reads use it as
    // any clock; a write of its bytes goes to the host, and it leaves the
    // pool in a reason-6 record, which the host joins into what it keeps.
    bool partial = false;
  };
  // The reason of the record a clock leaves the pool in.
  static unsigned spill_reason(const ReadClock& e);
  // A read, write or free on one granule, exactly as the engine's S3 stage.
  void execute(const CommandWord& c, uint64_t word, Output& out);
  void import_line(uint64_t granule, unsigned shared, uint64_t word, const Line& line,
                   const std::vector<uint64_t>& clock, Output& out);
  // Ops 9 and 10: an atomic read or write checked against the line's plain
  // history, recorded nowhere (the host keeps atomic history).
  void execute_atomic(const CommandWord& c, uint64_t word, Output& out);
  void escalate_line(uint64_t word, uint64_t granule, unsigned reason, const Line& line, Output& out);
  ReadClock* clock_for(uint64_t granule, const Line& line, unsigned byte);
  // The same with several read clocks per line (read_vc_ways > 1).
  void execute_multi(const CommandWord& c, uint64_t word, Output& out);
  bool import_read_clock(uint64_t granule, unsigned mask, uint64_t word, const std::vector<uint64_t>& clock,
                         Output& out);
  bool multi() const { return shape_.read_vcs > 0 && shape_.read_vc_ways > 1; }
  std::span<ReadClock> pool_set(uint64_t granule);
  ReadClock* clock_of(uint64_t granule, unsigned byte);
  bool can_take_way(uint64_t granule);
  ReadClock& take_way(uint64_t granule, uint64_t word, Output& out);
  void spill_clocks(uint64_t granule, uint64_t word, Output& out, const ReadClock* keep = nullptr);
  void acquire(const CommandWord& c);
  void release(const CommandWord& c);
  void escalate(uint64_t word, uint64_t granule, unsigned reason, const Line& line, const ReadClock* clock,
                Output& out);
  uint64_t bucket_table_bytes(unsigned bucket_bits) const {
    return (uint64_t{1} << bucket_bits) * cache_.bucket_ways * regs::kBucketWayBytes;
  }
  bool covers(unsigned slot, uint32_t epoch_slot, uint32_t epoch_clock) const;
  size_t pool_index(uint64_t granule) const;
  uint64_t set_of(uint64_t granule, unsigned sets) const;
  uint64_t cache_set(uint64_t granule) const;
  void look_up(uint64_t granule, uint64_t word, Output& out);
  KernelCycles::WriteBack write_back(uint64_t granule, uint64_t word, Output& out);
  void emit_race(const RaceRecord& race, Output& out);
  void time_lookup(const CommandWord& c);
  Line fill(uint64_t granule);
  std::span<std::byte> bucket(uint64_t granule);
  void reset_state();

  LineShape shape_;
  bool atomics_ = true;
  std::vector<std::vector<uint32_t>> rows_;     // the slot clock rows
  std::vector<std::vector<uint32_t>> objects_;  // the sync-object store (zero after a clear)
  std::unordered_map<uint64_t, Line> lines_;    // absent: the zero line (fresh, on chip)
  std::vector<ReadClock> pool_;                 // the read-VC pool (empty: none); set s is ways [s·W, s·W + W)
  std::vector<unsigned> pool_round_robin_;      // several ways: per pool set, the next victim
  CacheShape cache_;
  std::vector<std::vector<uint64_t>> cache_tags_;  // per set, per way: granule + 1 (0: invalid)
  std::vector<unsigned> round_robin_;              // per set: the next victim when no way is free
  std::unordered_map<uint64_t, bool> dirty_;       // per cached granule: the engine's dirty bit
  std::span<std::byte> buckets_;                   // this batch's bucket table
  unsigned bucket_bits_ = 0;
  Statistics stats_;
  std::optional<KernelCycles> cycles_;  // set: the cycle estimate runs
};

}  // namespace raceaccel::driver
