// Launching batches on a KernelSim directly (no Device in between): the
// register-level and directed kernel tests use it to see every register
// and every byte the kernel writes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/rac_kernel_regs.hpp"
#include "driver/records.hpp"
#include "kernel_sim.hpp"

namespace raceaccel::kernel_test {

namespace regs = raceaccel::regs;
using driver::CommandWord;
using driver::EscalationRecord;
using driver::RaceRecord;

// Command words in the contract's byte format.
class Batch {
 public:
  explicit Batch(driver::LineShape shape) : shape_(shape) {}
  // Returns the word index of the command.
  uint32_t add(const CommandWord& c) {
    const uint32_t index = words();
    bytes_.resize(bytes_.size() + 16);
    driver::encode_command(c, std::span<std::byte, 16>(bytes_.data() + 16 * index, 16));
    return index;
  }
  uint32_t access(unsigned op, unsigned slot, uint64_t granule, unsigned mask, bool force = false) {
    return add({.op = op, .force_sw = force, .slot = slot, .mask = mask, .granule = granule});
  }
  uint32_t set_row(unsigned slot, std::span<const uint64_t> lanes) {
    const uint32_t index = add({.op = regs::kOpSetRow, .slot = slot});
    std::vector<std::byte> data(16 * shape_.row_words());
    driver::encode_row(lanes, shape_, data);
    bytes_.insert(bytes_.end(), data.begin(), data.end());
    return index;
  }
  void raw(std::span<const std::byte, 16> word) { bytes_.insert(bytes_.end(), word.begin(), word.end()); }
  uint32_t words() const { return static_cast<uint32_t>(bytes_.size() / 16); }
  const std::vector<std::byte>& bytes() const { return bytes_; }
  const driver::LineShape& shape() const { return shape_; }

 private:
  driver::LineShape shape_;
  std::vector<std::byte> bytes_;
};

struct BatchResult {
  uint32_t status = 0, words_done = 0;
  std::vector<RaceRecord> races;
  std::vector<EscalationRecord> escalations;
};

// Device addresses of one launch (above 4 GB: pointer high words matter).
struct Buffers {
  uint64_t commands = 0x40'0000'0000;
  uint64_t races = 0x41'0000'0000;
  uint64_t escalations = 0x42'0000'0000;
  uint64_t buckets = 0x43'0000'0000;
  unsigned bucket_bits = 10;
};

template <typename Model>
void write_arguments(sim::KernelSim<Model>& k, const Buffers& b, uint32_t words, uint32_t flags, uint32_t race_capacity,
                     uint32_t esc_capacity) {
  const auto w64 = [&](uint32_t offset, uint64_t v) {
    k.write_register(offset, static_cast<uint32_t>(v));
    k.write_register(offset + 4, static_cast<uint32_t>(v >> 32));
  };
  w64(regs::kCommands, b.commands);
  k.write_register(regs::kCommandWords, words);
  k.write_register(regs::kFlags, flags);
  w64(regs::kRaces, b.races);
  k.write_register(regs::kRaceCapacity, race_capacity);
  w64(regs::kEscalations, b.escalations);
  k.write_register(regs::kEscCapacity, esc_capacity);
  w64(regs::kBuckets, b.buckets);
  k.write_register(regs::kBucketBits, b.bucket_bits);
}

// Polls ctrl until ap_done (the read that sees it clears it).
template <typename Model>
void wait_done(sim::KernelSim<Model>& k, uint64_t max_cycles = 5'000'000) {
  const uint64_t start = k.cycle();
  while (!(k.read_register(regs::kCtrl) & regs::kCtrlDone)) {
    if (k.cycle() - start > max_cycles) throw std::runtime_error("the kernel did not finish the batch");
    k.run(16);
  }
}

template <typename Model>
BatchResult read_results(sim::KernelSim<Model>& k, const Buffers& b) {
  BatchResult r;
  r.status = k.read_register(regs::kStatus);
  r.words_done = k.read_register(regs::kWordsDone);
  const uint32_t races = k.read_register(regs::kRacesWritten);
  const uint32_t escs = k.read_register(regs::kEscalationsWritten);
  // Counts beyond the capacities given would read past the buffers.
  if (races > k.read_register(regs::kRaceCapacity) || escs > k.read_register(regs::kEscCapacity)) {
    throw std::runtime_error("kernel reports more records than the capacities it was given");
  }
  for (uint32_t i = 0; i < races; ++i) {
    std::array<std::byte, 64> rec{};
    k.memory().read(b.races + 64ull * i, rec);
    r.races.push_back(driver::decode_race(rec));
  }
  const uint32_t record_bytes = k.read_register(regs::kCapEscRecordBytes);
  for (uint32_t i = 0; i < escs; ++i) {
    std::vector<std::byte> rec(record_bytes);
    k.memory().read(b.escalations + uint64_t{record_bytes} * i, rec);
    r.escalations.push_back(driver::decode_escalation(rec));
  }
  return r;
}

// Every protocol or assertion violation the kernel's bus models and RTL
// assertions saw is a test failure.
template <typename Model>
void expect_clean(const sim::KernelSim<Model>& k) {
  for (const std::string& v : k.violations()) ADD_FAILURE() << v;
}

// The same buffers 4 GB further up: memory no fail_range() of a test covers.
inline Buffers moved_up(Buffers b) {
  b.commands += 1ull << 32;
  b.races += 1ull << 32;
  b.escalations += 1ull << 32;
  b.buckets += 1ull << 32;
  return b;
}

// Escalation records per command word the contract asks the buffer to
// hold on a device (3 with a one-way pool, 2W + 1 with W ways; enough
// without a pool too): the capacity rule of docs/kernel-interface.md.
template <typename Device>
uint32_t esc_records_per_word(Device& d) {
  return std::max(3u, 2 * d.read_register(regs::kCapReadVcWays) + 1);
}

// Writes the batch to device memory, launches it with capacities that meet
// the contract, waits and reads everything back.
template <typename Model>
BatchResult run_batch(sim::KernelSim<Model>& k, const Batch& batch, const Buffers& b, uint32_t flags = 0) {
  k.memory().write(b.commands, batch.bytes());
  write_arguments(k, b, batch.words(), flags, batch.words(), esc_records_per_word(k) * batch.words());
  k.write_register(regs::kCtrl, regs::kCtrlStart);
  wait_done(k);
  return read_results(k, b);
}

}  // namespace raceaccel::kernel_test
