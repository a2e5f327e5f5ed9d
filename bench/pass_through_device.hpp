// A benchmark-only device that answers nothing: every batch completes at
// once with status OK, every command word done, no race and no escalation
// record. Under the real DeviceTransport and protocol core it leaves the
// host side of the offload path alone on the clock — the core, the
// command encoding and the batch building — without a device model's own
// work (bench/host_side_bench.cpp, docs/performance.md "Offload host side").
//
// Not a backend (open_device does not know it) and not a second protocol
// implementation: it only plays the register file of rac_kernel. Its
// capabilities are the software device's default shape, so the core sends
// the same commands it sends to that device; only the records differ (none
// come back, so the host never checks an escalated access).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "driver/device.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "driver/records.hpp"

namespace raceaccel::bench {

class PassThroughBuffer final : public driver::Buffer {
 public:
  PassThroughBuffer(uint64_t address, size_t bytes) : address_(address), host_(bytes) {}
  uint64_t device_address() const override { return address_; }
  size_t size() const override { return host_.size(); }
  std::span<std::byte> host() override { return host_; }
  // Nothing moves: the device never reads the commands.
  void to_device(size_t, size_t) override {}
  void from_device(size_t, size_t) override {}

 private:
  uint64_t address_;
  std::vector<std::byte> host_;
};

class PassThroughDevice final : public driver::Device {
 public:
  // `shape` and `objects`: what the capability registers report.
  explicit PassThroughDevice(const driver::LineShape& shape = {64, 32, 16}, unsigned objects = 64) {
    reg(regs::kCapMagic) = regs::kMagic;
    reg(regs::kCapVersion) = regs::kRegMapVersion;
    reg(regs::kCapSlots) = shape.slots;
    reg(regs::kCapClockBits) = shape.clock_bits;
    reg(regs::kCapLineBits) = shape.line_bits();
    reg(regs::kCapObjects) = objects;
    reg(regs::kCapReadVcs) = shape.read_vcs;
    reg(regs::kCapEscRecordBytes) = shape.esc_record_bytes();
    reg(regs::kCapFeatures) = regs::kFeatureImportLine | regs::kFeatureAtomicAccess;
    reg(regs::kCapBucketWays) = 4;
    reg(regs::kCapReadVcWays) = 1;
  }
  std::string_view backend() const override { return "pass-through"; }
  std::unique_ptr<driver::Buffer> allocate(size_t bytes) override {
    const uint64_t address = next_address_;
    next_address_ += (bytes + 2 * kPage - 1) / kPage * kPage;  // 4 KB aligned, a gap between buffers
    return std::make_unique<PassThroughBuffer>(address, bytes);
  }
  void write_register(uint32_t offset, uint32_t value) override { reg(offset) = value; }
  uint32_t read_register(uint32_t offset) override { return reg(offset); }
  // The batch is done as soon as it starts: every word, no records.
  void start() override {
    reg(regs::kStatus) = regs::kStatusOk;
    reg(regs::kWordsDone) = reg(regs::kCommandWords);
    reg(regs::kRacesWritten) = 0;
    reg(regs::kEscalationsWritten) = 0;
    done_ = true;
  }
  bool wait(std::chrono::milliseconds) override {
    const bool done = done_;
    done_ = false;
    return done;
  }

 private:
  static constexpr uint64_t kPage = 4096;
  static constexpr size_t kRegisterWords = (regs::kCapReadVcWays + 4) / 4;
  uint32_t& reg(uint32_t offset) { return regs_.at(offset / 4); }

  std::array<uint32_t, kRegisterWords> regs_{};
  uint64_t next_address_ = kPage;
  bool done_ = false;
};

}  // namespace raceaccel::bench
