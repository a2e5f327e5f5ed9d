// A buffer of the Verilator backend: a host staging copy and a range of the
// simulated device memory (the AXI memory model's SparseMemory), moved
// explicitly by to_device/from_device as on a card.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "driver/device.hpp"
#include "sparse_memory.hpp"

namespace raceaccel::driver {

class VerilatorBuffer final : public Buffer {
 public:
  VerilatorBuffer(sim::SparseMemory& memory, uint64_t address, size_t bytes)
      : memory_(memory), address_(address), host_(bytes) {}

  uint64_t device_address() const override { return address_; }
  size_t size() const override { return host_.size(); }
  std::span<std::byte> host() override { return host_; }
  void to_device(size_t offset, size_t bytes) override;
  void from_device(size_t offset, size_t bytes) override;

 private:
  void check_range(size_t offset, size_t bytes) const;
  sim::SparseMemory& memory_;
  uint64_t address_;
  std::vector<std::byte> host_;
};

}  // namespace raceaccel::driver
