// `check --backend`: one device serves every trace on the command line, each
// trace with an offload engine of its own. A batch that timed out may still
// be running on the device — a card goes on writing its records and its
// bucket table whenever it finishes — so after a timeout the device is
// retired: later traces fail at once, naming the trace that timed out,
// rather than start batches next to that one.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>

#include "driver/device.hpp"

namespace raceaccel {

class SharedDevice {
 public:
  explicit SharedDevice(std::unique_ptr<driver::Device> device) : device_(std::move(device)) {}

  // The device for the next trace; DeviceError(Timeout) once retired.
  driver::Device& for_next_trace() {
    if (!timed_out_on_.empty()) {
      throw driver::DeviceError(driver::DeviceErrorKind::Timeout,
                                fmt::format("not checked: the {} device timed out on {} and is not used again",
                                            device_->backend(), timed_out_on_));
    }
    return *device_;
  }
  // A device error while checking `trace`: a timeout retires the device.
  void note_failure(const std::string& trace, const driver::DeviceError& error) {
    if (error.kind() == driver::DeviceErrorKind::Timeout && timed_out_on_.empty()) timed_out_on_ = trace;
  }
  bool retired() const { return !timed_out_on_.empty(); }

 private:
  std::unique_ptr<driver::Device> device_;
  std::string timed_out_on_;  // the trace whose batch timed out; empty while usable
};

}  // namespace raceaccel
