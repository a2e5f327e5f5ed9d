// The xrt backend in a build without XRT: known by name, never available.
#include "driver/xrt/xrt_device.hpp"

namespace raceaccel::driver {

std::unique_ptr<Device> make_xrt_device(const DeviceOptions&, const std::string& alternatives) {
  throw DeviceError(
      DeviceErrorKind::Unavailable,
      "the xrt backend is not built in (libxrt-dev was not found when raceaccel was configured); use " + alternatives);
}

std::vector<DeviceInfo> list_xrt_devices() {
  return {{"xrt", "Alveo card through XRT", false, "not built in: libxrt-dev was not found at configure time"}};
}

}  // namespace raceaccel::driver
