// The Device helpers built on the one register path.
#include "driver/device.hpp"

#include <fmt/format.h>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::driver {

void Device::write_register64(uint32_t offset, uint64_t value) {
  write_register(offset, static_cast<uint32_t>(value));
  write_register(offset + 4, static_cast<uint32_t>(value >> 32));
}

uint64_t Device::read_register64(uint32_t offset) {
  const uint64_t low = read_register(offset);
  const uint64_t high = read_register(offset + 4);
  return low | high << 32;
}

Capabilities Device::capabilities() {
  Capabilities c;
  c.magic = read_register(regs::kCapMagic);
  if (c.magic != regs::kMagic) {
    throw DeviceError(DeviceErrorKind::Protocol,
                      fmt::format("{} device: cap_magic reads {:#x}, expected {:#x} (is this rac_kernel?)", backend(),
                                  c.magic, regs::kMagic));
  }
  c.version = read_register(regs::kCapVersion);
  if (c.version != regs::kRegMapVersion) {
    throw DeviceError(DeviceErrorKind::Protocol,
                      fmt::format("{} device: register map version {}, this host speaks version {}", backend(),
                                  c.version, regs::kRegMapVersion));
  }
  c.slots = read_register(regs::kCapSlots);
  c.clock_bits = read_register(regs::kCapClockBits);
  c.sets = read_register(regs::kCapSets);
  c.ways = read_register(regs::kCapWays);
  c.line_bits = read_register(regs::kCapLineBits);
  c.objects = read_register(regs::kCapObjects);
  c.read_vcs = read_register(regs::kCapReadVcs);
  c.esc_record_bytes = read_register(regs::kCapEscRecordBytes);
  c.features = read_register(regs::kCapFeatures);
  c.bucket_ways = read_register(regs::kCapBucketWays);
  c.read_vc_ways = read_register(regs::kCapReadVcWays);
  return c;
}

std::span<const StatisticRegister> statistic_registers() {
  static constexpr StatisticRegister kMap[] = {
      {regs::kStatCycles, &Statistics::cycles},
      {regs::kStatBusyCycles, &Statistics::busy_cycles},
      {regs::kStatCommands, &Statistics::commands},
      {regs::kStatAccesses, &Statistics::accesses},
      {regs::kStatMisses, &Statistics::misses},
      {regs::kStatWritebacks, &Statistics::writebacks},
      {regs::kStatEscalations, &Statistics::escalations},
      {regs::kStatSpills, &Statistics::spills},
      {regs::kStatRaces, &Statistics::races},
  };
  return kMap;
}

Statistics Device::statistics() {
  Statistics s;
  for (const StatisticRegister& r : statistic_registers()) s.*r.field = read_register64(r.offset);
  return s;
}

}  // namespace raceaccel::driver
