// `check --backend`: the devices (one, or --devices N) serve every trace on
// the command line, each trace with an offload engine of its own. A batch
// that timed out may still be running on a device — a card goes on writing
// its records and its bucket table whenever it finishes — so after a
// timeout the devices are retired: later traces fail at once, naming the
// trace that timed out, rather than start batches next to that one.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "driver/device.hpp"

namespace raceaccel {

class SharedDevice {
 public:
  explicit SharedDevice(std::unique_ptr<driver::Device> device) : SharedDevice(one(std::move(device))) {}
  explicit SharedDevice(std::vector<std::unique_ptr<driver::Device>> devices) : devices_(std::move(devices)) {
    for (const auto& d : devices_) pointers_.push_back(d.get());
  }

  // The devices for the next trace; DeviceError(Timeout) once retired.
  const std::vector<driver::Device*>& for_next_trace() {
    if (!timed_out_on_.empty()) {
      throw driver::DeviceError(driver::DeviceErrorKind::Timeout,
                                fmt::format("not checked: the {} device timed out on {} and is not used again",
                                            devices_.front()->backend(), timed_out_on_));
    }
    return pointers_;
  }
  // A device error while checking `trace`: a timeout retires the devices.
  void note_failure(const std::string& trace, const driver::DeviceError& error) {
    if (error.kind() == driver::DeviceErrorKind::Timeout && timed_out_on_.empty()) timed_out_on_ = trace;
  }
  bool retired() const { return !timed_out_on_.empty(); }

 private:
  static std::vector<std::unique_ptr<driver::Device>> one(std::unique_ptr<driver::Device> device) {
    std::vector<std::unique_ptr<driver::Device>> v;
    v.push_back(std::move(device));
    return v;
  }

  std::vector<std::unique_ptr<driver::Device>> devices_;
  std::vector<driver::Device*> pointers_;
  std::string timed_out_on_;  // the trace whose batch timed out; empty while usable
};

}  // namespace raceaccel
