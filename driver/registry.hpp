// Device backends by name (registry.cpp): the one list of their names and
// the one way from what a user names — a backend, a card image, a card
// index — to an open Device. `raceaccel check --backend` and the runtime's
// backend=verilator|xrt both go through here, so they accept the same
// names and fail with the same messages.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "driver/device.hpp"

namespace raceaccel::driver {

// In preference order; backend_names() returns these.
inline constexpr std::array<std::string_view, 3> kBackendNames{"software", "verilator", "xrt"};

// DeviceOptions for a backend chosen by the user; every other field keeps
// its default.
DeviceOptions device_options(std::string_view backend, const std::string& xclbin, unsigned device_index);
// open_device(device_options(...)): throws DeviceError naming the alternatives.
std::unique_ptr<Device> open_device(std::string_view backend, const std::string& xclbin, unsigned device_index);

}  // namespace raceaccel::driver
