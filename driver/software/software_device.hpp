// The software backend: SoftwareKernel behind rac_kernel's register file.
#pragma once

#include <memory>

#include "driver/device.hpp"
#include "driver/software/software_kernel.hpp"

namespace raceaccel::driver {

std::unique_ptr<Device> make_software_device(const DeviceOptions& options);
// The same with the metadata cache's geometry, so that the model emits the
// eviction spills of a kernel of that shape (tests compare it byte for byte).
std::unique_ptr<Device> make_software_device(const DeviceOptions& options, CacheShape cache);
DeviceInfo software_device_info(const DeviceOptions& options);

}  // namespace raceaccel::driver
