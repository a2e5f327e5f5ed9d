#include "driver/verilator/verilator_buffer.hpp"

#include <fmt/format.h>

namespace raceaccel::driver {

void VerilatorBuffer::check_range(size_t offset, size_t bytes) const {
  if (offset > host_.size() || bytes > host_.size() - offset) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("buffer sync of [{}, +{}) outside a buffer of {} bytes",
                                                             offset, bytes, host_.size()));
  }
}

void VerilatorBuffer::to_device(size_t offset, size_t bytes) {
  check_range(offset, bytes);
  memory_.write(address_ + offset, std::span<const std::byte>(host_).subspan(offset, bytes));
}

void VerilatorBuffer::from_device(size_t offset, size_t bytes) {
  check_range(offset, bytes);
  memory_.read(address_ + offset, std::span<std::byte>(host_).subspan(offset, bytes));
}

}  // namespace raceaccel::driver
