#include "driver/verilator/verilator_device.hpp"

#include "Vrac_kernel_default.h"
#include "driver/verilator/verilator_device_impl.hpp"

namespace raceaccel::driver {

std::unique_ptr<Device> make_verilator_device(const DeviceOptions& options) {
  return std::make_unique<VerilatorDevice<Vrac_kernel_default>>(options);
}

}  // namespace raceaccel::driver
