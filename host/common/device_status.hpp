// The exit status of a device failure (docs/cli.md), shared by `check
// --backend` and the runtime's backend=verilator|xrt (hence in host/common/).
#pragma once

#include "common/exit_codes.hpp"
#include "driver/device.hpp"

namespace raceaccel {

// UnknownBackend and BadOptions → 2, Unavailable → 69, NoFile → 74,
// Timeout/Protocol → 70, OutOfMemory → 71.
inline int device_error_status(const driver::DeviceError& e) {
  switch (e.kind()) {
    case driver::DeviceErrorKind::UnknownBackend:
    case driver::DeviceErrorKind::BadOptions: return exit_code::kUsage;
    case driver::DeviceErrorKind::Unavailable: return exit_code::kNoDevice;
    case driver::DeviceErrorKind::NoFile: return exit_code::kIo;
    case driver::DeviceErrorKind::OutOfMemory: return exit_code::kDeviceMemory;
    case driver::DeviceErrorKind::Timeout:
    case driver::DeviceErrorKind::Protocol: break;
  }
  return exit_code::kCapacity;
}

}  // namespace raceaccel
