#include "runtime/device_backend.hpp"

#include "common/device_status.hpp"
#include "driver/registry.hpp"
#include "offload/offload_checker.hpp"
#include "offload/stats_json.hpp"

#include <stdexcept>

namespace raceaccel::rt {
namespace {

// Owns the device and the offload engine on it (the engine holds a
// reference to the device, so both live and die together).
class DeviceDetector final : public Detector {
 public:
  explicit DeviceDetector(std::unique_ptr<driver::Device> device)
      : device_(std::move(device)), checker_(std::make_unique<offload::OffloadChecker>(*device_)) {}
  std::string_view name() const override { return checker_->name(); }
  void process(const Event& event, uint64_t index) override { checker_->process(event, index); }
  const std::vector<Race>& races() const override { return checker_->races(); }
  void finish() override { checker_->finish(); }
  offload::OffloadStats stats() { return checker_->stats(); }

 private:
  std::unique_ptr<driver::Device> device_;
  std::unique_ptr<offload::OffloadChecker> checker_;
};

}  // namespace

DeviceBackendResult open_device_backend(const RuntimeOptions& options) {
  try {
    return {
        std::make_unique<DeviceDetector>(driver::open_device(options.backend, options.xclbin, options.device)), {}, 0};
  } catch (const driver::DeviceError& e) {
    return {nullptr, "backend=" + options.backend + ": " + e.what(), device_error_status(e)};
  }
}

DeviceBackendResult PendingDeviceBackend::open() {
  if (device_) return {};
  DeviceBackendResult result = open_device_backend(options_);
  if (!result.detector) return result;
  device_ = std::move(result.detector);
  for (const auto& [event, index] : kept_) device_->process(event, index);
  kept_.clear();
  kept_.shrink_to_fit();
  return {};
}

nlohmann::json PendingDeviceBackend::accelerator_json() {
  if (!device_) return nullptr;
  return offload::stats_json(static_cast<DeviceDetector&>(*device_).stats());
}

void PendingDeviceBackend::process(const Event& event, uint64_t index) {
  if (device_) return device_->process(event, index);
  kept_.emplace_back(event, index);
}

void PendingDeviceBackend::finish() {
  // A program that ends before the device could be opened (it exits inside
  // a static initializer) still gets its checks.
  if (!device_) {
    DeviceBackendResult result = open();
    if (!result.error.empty()) throw std::runtime_error(result.error);
  }
  device_->finish();
}

}  // namespace raceaccel::rt
