// Device backends by name (registry.cpp): the one list of their names and
// the one way from what a user names — a backend, a card image, a card
// index — to an open Device. `raceaccel check --backend` and the runtime's
// backend=verilator|xrt both go through here, so they accept the same
// names and fail with the same messages.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "driver/device.hpp"
#include "driver/kernel_shape.hpp"

namespace raceaccel::driver {

// In preference order; backend_names() returns these.
inline constexpr std::array<std::string_view, 3> kBackendNames{"software", "verilator", "xrt"};

// DeviceOptions for a backend chosen by the user; every other field keeps
// its default.
DeviceOptions device_options(std::string_view backend, const std::string& xclbin, unsigned device_index);
// open_device(device_options(...)): throws DeviceError naming the alternatives.
std::unique_ptr<Device> open_device(std::string_view backend, const std::string& xclbin, unsigned device_index);

// Verilator devices of one kernel shape: the model is built on demand into
// a cache directory and reused (driver/verilator/shape_model.hpp; `log`
// hears about a build). Throws DeviceError: BadOptions for a shape the RTL
// cannot take, Unavailable without the Verilator backend or when the model
// cannot be built here.
using DeviceFactory = std::function<std::unique_ptr<Device>(const DeviceOptions&)>;
DeviceFactory verilator_shape_factory(const KernelShape& shape, const std::string& cache_dir,
                                      const std::function<void(const std::string&)>& log);

}  // namespace raceaccel::driver
