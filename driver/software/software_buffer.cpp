#include "driver/software/software_buffer.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace raceaccel::driver {

std::span<std::byte> SoftwareMemory::device_range(uint64_t address, uint64_t bytes) {
  auto it = buffers_.upper_bound(address);
  if (it == buffers_.begin()) return {};
  --it;
  const uint64_t offset = address - it->first;
  std::span<std::byte> device = it->second->device();
  if (offset > device.size() || bytes > device.size() - offset) return {};
  return device.subspan(offset, bytes);
}

uint64_t SoftwareMemory::reserve(size_t bytes) {
  constexpr uint64_t kPage = 4096;
  const uint64_t address = next_;
  // One guard page between buffers, so an overrun is never another buffer.
  next_ += (std::max<uint64_t>(bytes, 1) + kPage - 1) / kPage * kPage + kPage;
  return address;
}

SoftwareBuffer::SoftwareBuffer(SoftwareMemory& memory, size_t bytes)
    : memory_(memory), address_(memory.reserve(bytes)), host_(bytes), device_(bytes) {
  memory_.attach(address_, this);
}

SoftwareBuffer::~SoftwareBuffer() { memory_.detach(address_); }

void SoftwareBuffer::check_range(size_t offset, size_t bytes) const {
  if (offset > host_.size() || bytes > host_.size() - offset) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("buffer sync of [{}, +{}) outside a buffer of {} bytes",
                                                             offset, bytes, host_.size()));
  }
}

void SoftwareBuffer::to_device(size_t offset, size_t bytes) {
  check_range(offset, bytes);
  std::copy_n(host_.begin() + static_cast<std::ptrdiff_t>(offset), bytes,
              device_.begin() + static_cast<std::ptrdiff_t>(offset));
}

void SoftwareBuffer::from_device(size_t offset, size_t bytes) {
  check_range(offset, bytes);
  std::copy_n(device_.begin() + static_cast<std::ptrdiff_t>(offset), bytes,
              host_.begin() + static_cast<std::ptrdiff_t>(offset));
}

}  // namespace raceaccel::driver
