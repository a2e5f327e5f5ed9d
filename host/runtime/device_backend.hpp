// backend=verilator|xrt: the runtime's checks offloaded through the device
// layer (docs/driver.md) — the offload engine on a Device, behind the same
// Detector interface as the in-process detectors.
#pragma once

#include <memory>
#include <string>

#include "detect/detector.hpp"
#include "runtime/options.hpp"

namespace raceaccel::rt {

struct DeviceBackendResult {
  std::unique_ptr<Detector> detector;  // null on failure
  std::string error;                   // why, naming the alternatives
  int status = 0;                      // exit status for the failure (docs/cli.md: 2, 69, 74, 70)
};

DeviceBackendResult open_device_backend(const RuntimeOptions& options);

}  // namespace raceaccel::rt
