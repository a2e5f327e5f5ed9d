// Device memory of the software model: each buffer has a host staging copy
// and a separate "device" copy, so a missing to_device/from_device shows up
// in tests exactly as it would on a card.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "driver/device.hpp"

namespace raceaccel::driver {

class SoftwareBuffer;

// The model's device address space: buffers at 4 KB-aligned addresses.
class SoftwareMemory {
 public:
  // The device bytes [address, address + bytes), or an empty span if that
  // range is not inside one live buffer.
  std::span<std::byte> device_range(uint64_t address, uint64_t bytes);
  uint64_t reserve(size_t bytes);  // a fresh address range
  void attach(uint64_t address, SoftwareBuffer* buffer) { buffers_[address] = buffer; }
  void detach(uint64_t address) { buffers_.erase(address); }

 private:
  uint64_t next_ = 0x1'0000'0000;  // not 0, so a null pointer argument is never valid
  std::map<uint64_t, SoftwareBuffer*> buffers_;
};

class SoftwareBuffer final : public Buffer {
 public:
  SoftwareBuffer(SoftwareMemory& memory, size_t bytes);
  ~SoftwareBuffer() override;
  SoftwareBuffer(const SoftwareBuffer&) = delete;
  SoftwareBuffer& operator=(const SoftwareBuffer&) = delete;

  uint64_t device_address() const override { return address_; }
  size_t size() const override { return host_.size(); }
  std::span<std::byte> host() override { return host_; }
  void to_device(size_t offset, size_t bytes) override;
  void from_device(size_t offset, size_t bytes) override;
  std::span<std::byte> device() { return device_; }

 private:
  void check_range(size_t offset, size_t bytes) const;
  SoftwareMemory& memory_;
  uint64_t address_;
  std::vector<std::byte> host_, device_;
};

}  // namespace raceaccel::driver
