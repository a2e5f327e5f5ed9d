// The fast model's cycle estimate: what rac_kernel's busy cycles (ap_start
// taken to ap_done, stat_busy_cycles) would be for the batch the software
// model just ran, at a fixed memory latency and without bus back-pressure.
//
// Cycle-approximate, not cycle-accurate (docs/hardware.md, "The fast
// model's cycle estimate"). During the batch the software model records
// what the timing depends on — each command's words, lookup and granule,
// the S2 waits, the misses (victim, write-back, buckets) and the records —
// and end_batch() replays it in two parts that run side by side:
//  - the engine, by formula: one command per cycle once the command FIFO
//    has it, the S2 wait, a miss's request after the pipeline drains, the
//    record writers (one record per beats + 2 cycles; S3 waits while the
//    engine's record register is full);
//  - the rest of the kernel, cycle by cycle (MissAhead below): the decoder
//    (one word per cycle, held while the command FIFO or the hint queue is
//    full), the shadow tags and their hints, the meta port's hint queue,
//    hasher and PrefetchEntries entries, the one-ID read channel whose
//    bursts return in AR order, and the meta port's own states for the
//    engine's fills and write-backs (posted writes, reads held until the B
//    response, entries dropped by a write-back to their bucket or once the
//    engine has passed their command).
// The engine waits on the second part for a command and for each miss's
// answer, and tells it what it took, when it asked and what it installed.
// The constants were measured against the Verilated kernel
// (tests/kernel/kernel_model_agreement_test.cpp: four shapes, latencies 1,
// 8 and 32, within ±5 %).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace raceaccel::driver {

struct KernelTimingShape {
  unsigned sets = 0, ways = 4, slots = 8, objects = 0, bucket_ways = 4;
  unsigned esc_beats = 2;  // 64-byte beats per escalation record
  double latency = 1;      // memory latency in cycles (the mean, when it varies)
};

class KernelCycles {
 public:
  // How a write-back ends in the meta port.
  enum class WriteBack { Store, SpillAndFilter, Spill, Nothing };

  explicit KernelCycles(const KernelTimingShape& shape = {}) : shape_(shape) {}

  void begin_batch(bool clear);
  // One command and its data words (seq: its first word's index; lookup: it
  // looks its line up, so the shadow tags may hint it; force: the decoder
  // marked it for software, which the shadow does not look up).
  // (SoftwareKernel::time_lookup then checks the S2 wait.)
  void command(unsigned words, bool lookup, uint64_t seq = 0, uint64_t granule = 0, uint64_t set = 0,
               uint64_t bucket = 0, bool force = false);
  // A lookup right behind another lookup of the same line or pool entry.
  void hazard() { events_.push_back({Event::Hazard}); }
  // A miss of the last command: its victim way in its set, the dirty
  // victim's write-back and bucket, and whether the victim has shared bytes
  // (with a pool the engine then looks its clocks up first: S1EvSpill).
  void miss(bool dirty, WriteBack how, uint64_t wb_bucket, unsigned way, bool shared_victim = false);
  void esc_record() { events_.push_back({Event::EscRecord}); }
  void race_record() { events_.push_back({Event::RaceRecord}); }
  // The batch's busy cycles.
  uint64_t end_batch();

  // Per-lookup bookkeeping of the previous lookup (for hazard()).
  bool prev_lookup_ = false;
  uint64_t prev_granule_ = 0;
  size_t prev_pool_entry_ = 0;
  bool prev_may_write_pool_ = false;

  // What the batch recorded (the replay's input; kernel_cycles.cpp).
  struct Command {
    unsigned words = 1;
    bool lookup = false, force = false;
    uint64_t seq = 0, granule = 0, set = 0;
    uint64_t bucket = 0;  // its granule's bucket
  };
  struct Miss {
    bool dirty = false;
    WriteBack how = WriteBack::Nothing;
    uint64_t wb_bucket = 0;
    unsigned way = 0;
    bool shared_victim = false;
  };
  struct Event {
    enum Kind { Command, Hazard, Miss, EscRecord, RaceRecord } kind;
    size_t index = 0;  // into commands_ or misses_
  };

 private:
  KernelTimingShape shape_;
  bool clear_ = false;
  bool first_batch_ = true;  // the device's first launch after its reset
  std::vector<Command> commands_;
  std::vector<Miss> misses_;
  std::vector<Event> events_;
  // The shadow of the engine's tags (granule + 1 per set and way) outlives
  // the batch, as rac_miss_ahead's does; clear_state empties it.
  std::vector<uint64_t> shadow_;
};

}  // namespace raceaccel::driver
