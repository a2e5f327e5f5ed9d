// backend=verilator|xrt: the runtime's checks offloaded through the device
// layer (docs/driver.md) — the offload engine on a Device, behind the same
// Detector interface as the in-process detectors.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "detect/detector.hpp"
#include "runtime/options.hpp"

namespace raceaccel::rt {

struct DeviceBackendResult {
  std::unique_ptr<Detector> detector;  // null on failure
  std::string error;                   // why, naming the alternatives
  int status = 0;                      // exit status for the failure (docs/cli.md: 2, 69, 74, 70)
};

DeviceBackendResult open_device_backend(const RuntimeOptions& options);

// A device backend whose device is opened later, by open(): the runtime may
// start from an interceptor that a library's static initializer calls, and
// XRT's own static objects may not exist yet then (opening the card there
// crashed). Events until open() are kept and replayed in order.
class PendingDeviceBackend final : public Detector {
 public:
  explicit PendingDeviceBackend(RuntimeOptions options) : options_(std::move(options)) {}
  // Opens the device and replays the kept events; on failure the result
  // carries the message and exit status (and nothing is replayed).
  DeviceBackendResult open();
  bool opened() const { return device_ != nullptr; }
  // The accelerator's statistics as `check --json` gives them (null before
  // the device is open).
  nlohmann::json accelerator_json();

  std::string_view name() const override { return device_ ? device_->name() : "pending device"; }
  void process(const Event& event, uint64_t index) override;
  const std::vector<Race>& races() const override { return device_ ? device_->races() : no_races_; }
  void finish() override;

 private:
  RuntimeOptions options_;
  std::unique_ptr<Detector> device_;
  std::vector<std::pair<Event, uint64_t>> kept_;
  std::vector<Race> no_races_;
};

}  // namespace raceaccel::rt
