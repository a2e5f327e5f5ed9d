// The XRT backend: rac_kernel on an Alveo card through Xilinx XRT's native
// C++ API (docs/driver.md). Built when libxrt-dev is installed; otherwise
// xrt_unavailable.cpp says so.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "driver/device.hpp"

namespace raceaccel::driver {

// Opens card options.device_index and loads options.xclbin. Throws
// DeviceError: NoFile (xclbin unreadable), Unavailable (no XRT runtime, no
// card, wrong image; the message ends with `alternatives`).
std::unique_ptr<Device> make_xrt_device(const DeviceOptions& options, const std::string& alternatives);
// One row per card XRT sees, or one unavailable row saying why none.
std::vector<DeviceInfo> list_xrt_devices();

}  // namespace raceaccel::driver
