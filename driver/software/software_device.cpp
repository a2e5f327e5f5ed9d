// The register file of rac_kernel around the functional model. A launch runs
// to completion inside start(), so wait() only has to see ap_done. Made
// with a cache shape (the sweep's fast model, the agreement tests) the model
// also estimates the kernel's cycles (kernel_cycles.hpp) at the mean of the
// options' memory latency; without one (check --backend software, an
// unbounded store) stat_cycles and stat_busy_cycles stay 0.
#include "driver/software/software_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "driver/rac_kernel_regs.hpp"
#include "driver/software/software_buffer.hpp"
#include "driver/software/software_kernel.hpp"

namespace raceaccel::driver {
namespace {

class SoftwareDevice final : public Device {
 public:
  SoftwareDevice(const LineShape& shape, unsigned objects, CacheShape cache, bool atomics,
                 std::optional<double> latency = std::nullopt)
      : kernel_(shape, objects, cache, atomics) {
    if (latency) kernel_.estimate_cycles(*latency);
    // The capability registers are constants of the "bitstream".
    reg(regs::kCapMagic) = regs::kMagic;
    reg(regs::kCapVersion) = regs::kRegMapVersion;
    reg(regs::kCapSlots) = shape.slots;
    reg(regs::kCapClockBits) = shape.clock_bits;
    reg(regs::kCapSets) = cache.sets;  // 0: no cache, an unbounded on-chip store
    reg(regs::kCapWays) = cache.ways;
    reg(regs::kCapLineBits) = shape.line_bits();
    reg(regs::kCapObjects) = objects;
    reg(regs::kCapReadVcs) = shape.read_vcs;
    reg(regs::kCapEscRecordBytes) = shape.esc_record_bytes();
    reg(regs::kCapFeatures) = regs::kFeatureImportLine | (atomics ? regs::kFeatureAtomicAccess : 0u);
    reg(regs::kCapBucketWays) = cache.bucket_ways;
    reg(regs::kCapReadVcWays) = shape.read_vc_ways;
  }
  std::string_view backend() const override { return "software"; }
  std::unique_ptr<Buffer> allocate(size_t bytes) override { return std::make_unique<SoftwareBuffer>(memory_, bytes); }
  void write_register(uint32_t offset, uint32_t value) override;
  uint32_t read_register(uint32_t offset) override;
  void start() override;
  bool wait(std::chrono::milliseconds timeout) override;

 private:
  static constexpr size_t kRegisterWords = (regs::kCapReadVcWays + 4) / 4;
  uint32_t& reg(uint32_t offset) { return regs_[offset / 4]; }
  uint64_t reg64(uint32_t offset) { return uint64_t{reg(offset)} | uint64_t{reg(offset + 4)} << 32; }
  void check_offset(uint32_t offset) const;
  void latch_statistics();

  SoftwareMemory memory_;
  SoftwareKernel kernel_;
  std::array<uint32_t, kRegisterWords> regs_{};
  bool done_ = false, ready_ = false;
};

void SoftwareDevice::check_offset(uint32_t offset) const {
  if (offset % 4 != 0 || offset >= kRegisterWords * 4) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("software device: no register at offset {:#x}", offset));
  }
}

void SoftwareDevice::write_register(uint32_t offset, uint32_t value) {
  check_offset(offset);
  if (offset == regs::kCtrl) {
    if (value & regs::kCtrlStart) start();
    return;
  }
  if (offset == regs::kIsr) {
    reg(offset) ^= value & 3u;  // toggle on write
    return;
  }
  // Read-only registers ignore writes, as on the kernel.
  for (const regs::Register& r : regs::kRegisters) {
    if ((offset == r.offset || (r.bits == 64 && offset == r.offset + 4)) && r.access == regs::Access::ReadOnly) return;
  }
  reg(offset) = value;
}

uint32_t SoftwareDevice::read_register(uint32_t offset) {
  check_offset(offset);
  if (offset == regs::kCtrl) {
    // Never busy between calls: ap_idle is always set; done/ready clear on read.
    const uint32_t value = regs::kCtrlIdle | (done_ ? regs::kCtrlDone : 0u) | (ready_ ? regs::kCtrlReady : 0u);
    done_ = ready_ = false;
    return value;
  }
  return reg(offset);
}

void SoftwareDevice::latch_statistics() {
  const Statistics& s = kernel_.statistics();
  const auto put = [&](uint32_t offset, uint64_t v) {
    reg(offset) = static_cast<uint32_t>(v);
    reg(offset + 4) = static_cast<uint32_t>(v >> 32);
  };
  for (const StatisticRegister& r : statistic_registers()) put(r.offset, s.*r.field);
}

void SoftwareDevice::start() {
  BatchArguments a;
  a.commands = reg64(regs::kCommands);
  a.command_words = reg(regs::kCommandWords);
  a.flags = reg(regs::kFlags);
  a.races = reg64(regs::kRaces);
  a.race_capacity = reg(regs::kRaceCapacity);
  a.escalations = reg64(regs::kEscalations);
  a.esc_capacity = reg(regs::kEscCapacity);
  a.buckets = reg64(regs::kBuckets);
  a.bucket_bits = reg(regs::kBucketBits);
  const BatchResult r = kernel_.run(a, memory_);
  reg(regs::kStatus) = r.status;
  reg(regs::kRacesWritten) = r.races_written;
  reg(regs::kEscalationsWritten) = r.escalations_written;
  reg(regs::kWordsDone) = r.words_done;
  latch_statistics();
  done_ = ready_ = true;
  reg(regs::kIsr) |= (reg(regs::kIer) & 3u);
}

bool SoftwareDevice::wait(std::chrono::milliseconds) {
  const bool done = done_;
  done_ = false;
  return done;
}

LineShape shape_of(const DeviceOptions& o) {
  if (o.software_slots < 1 || o.software_slots > 256 || o.software_clock_bits < 1 || o.software_clock_bits > 32) {
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("software device: {} slots of {}-bit clocks is outside the kernel's limits "
                                  "(1..256 slots, 1..32 bits)",
                                  o.software_slots, o.software_clock_bits));
  }
  const unsigned vcs = o.software_read_vcs;
  if (vcs > 65536 || (vcs & (vcs - 1)) != 0) {
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("software device: a read-VC pool of {} entries is outside the kernel's limits "
                                  "(0 or a power of two up to 65536)",
                                  vcs));
  }
  const unsigned ways = o.software_read_vc_ways;
  if (ways < 1 || ways > 8 || (ways & (ways - 1)) != 0 || (vcs != 0 && ways > vcs)) {
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("software device: {} read-VC pool ways is outside the kernel's limits "
                                  "(a power of two up to 8, at most the pool's entries)",
                                  ways));
  }
  return {o.software_slots, o.software_clock_bits, vcs, vcs == 0 ? 1u : ways};
}

constexpr unsigned kMaxSoftwareObjects = 65536;

unsigned objects_of(const DeviceOptions& o) {
  if (o.software_objects > kMaxSoftwareObjects) {
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("software device: {} sync objects is outside the kernel's limits (0..{})",
                                  o.software_objects, kMaxSoftwareObjects));
  }
  return o.software_objects;
}

}  // namespace

std::unique_ptr<Device> make_software_device(const DeviceOptions& options) {
  return std::make_unique<SoftwareDevice>(shape_of(options), objects_of(options), CacheShape{},
                                          options.software_atomic_access);
}

std::unique_ptr<Device> make_software_device(const DeviceOptions& options, CacheShape cache) {
  const bool power_of_two = (cache.sets & (cache.sets - 1)) == 0 && (cache.ways & (cache.ways - 1)) == 0;
  const bool bucket_ways_ok =
      cache.bucket_ways >= 1 && cache.bucket_ways <= 8 && (cache.bucket_ways & (cache.bucket_ways - 1)) == 0;
  if (!power_of_two || !bucket_ways_ok || (cache.sets == 0) != (cache.ways == 0) || cache.ways > 64 ||
      (cache.sets != 0 && options.software_read_vcs / std::max(1u, options.software_read_vc_ways) > cache.sets)) {
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("software device: a {} x {} cache is outside the kernel's limits (powers of two, "
                                  "at most 64 ways, at least as many sets as read-clock pool sets)",
                                  cache.sets, cache.ways));
  }
  const double latency = (std::max(1u, options.min_latency) + std::max(options.min_latency, options.max_latency)) / 2.0;
  return std::make_unique<SoftwareDevice>(shape_of(options), objects_of(options), cache, options.software_atomic_access,
                                          latency);
}

DeviceInfo software_device_info(const DeviceOptions& options) {
  const LineShape shape = shape_of(options);
  return {
      "software",
      fmt::format("rac_kernel functional model ({} slots, {}-bit clocks, {} sync objects, {} read clocks, no cache)",
                  shape.slots, shape.clock_bits, objects_of(options), shape.read_vcs),
      true, "select with --backend software"};
}

}  // namespace raceaccel::driver
