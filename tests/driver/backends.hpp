// The backends the typed suites run on: the software model always, the
// Verilator-simulated kernel when it is built in.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "driver/device.hpp"

namespace raceaccel::test {

struct SoftwareBackend {
  static constexpr const char* kName = "software";
  static constexpr bool kConfigurableShape = true;  // software_slots / software_clock_bits apply
  static driver::DeviceOptions options() {
    driver::DeviceOptions o;
    o.backend = "software";
    return o;
  }
};

#if RACEACCEL_HAVE_VERILATOR_DEVICE
struct VerilatorBackend {
  static constexpr const char* kName = "verilator";
  static constexpr bool kConfigurableShape = false;  // fixed by the Verilated model
  static driver::DeviceOptions options() {
    driver::DeviceOptions o;
    o.backend = "verilator";
    o.seed = 7;
    return o;
  }
};
using Backends = ::testing::Types<SoftwareBackend, VerilatorBackend>;
#else
using Backends = ::testing::Types<SoftwareBackend>;
#endif

struct BackendNames {
  template <typename T>
  static std::string GetName(int) {
    return T::kName;
  }
};

}  // namespace raceaccel::test
