// The software backend: SoftwareKernel behind rac_kernel's register file.
#pragma once

#include <memory>

#include "driver/device.hpp"

namespace raceaccel::driver {

std::unique_ptr<Device> make_software_device(const DeviceOptions& options);
DeviceInfo software_device_info(const DeviceOptions& options);

}  // namespace raceaccel::driver
