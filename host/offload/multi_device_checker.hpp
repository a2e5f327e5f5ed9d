// The offload engine on several devices at once (docs/driver.md,
// "Several devices"), as a host with several cards would run it.
//
// Memory is cut into address blocks exactly as `check --jobs N` cuts it
// (ShardedChecker, docs/detectors.md "Sharded checking"; the rule is that
// class's, not repeated here): each device owns the granules of its share of
// the blocks, and its offload engine (an OffloadChecker with its own
// protocol core) replays every synchronization event and checks only the
// accesses to its own bytes. Each device has its own worker thread, which
// fills and launches that device's batches. The races of all devices,
// sorted by (event, byte), are one device's list.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "detect/detector.hpp"
#include "detect/sharded_checker.hpp"
#include "driver/device.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::offload {

class MultiDeviceChecker final : public Detector {
 public:
  static constexpr unsigned kMaxDevices = 64;
  // One offload engine per device, with the same options. Throws
  // std::invalid_argument for no devices or more than kMaxDevices, and
  // DeviceError as OffloadChecker does (a device that breaks the contract).
  MultiDeviceChecker(std::span<driver::Device* const> devices, const OffloadOptions& options);
  std::string_view name() const override { return "offload"; }
  void process(const Event& e, uint64_t index) override;
  // Launches every device's last batch, each from its own thread.
  void finish() override;
  const std::vector<Race>& races() const override { return shards_->races(); }
  // The index of the event a device failed at, once that failure was thrown.
  std::optional<uint64_t> failed_event() const { return shards_->failed_event(); }

  unsigned devices() const { return static_cast<unsigned>(checkers_.size()); }
  // Each device's statistics (its events are those it was given: every
  // synchronization event and the accesses to its bytes).
  std::vector<OffloadStats> device_stats();

 private:
  std::vector<OffloadChecker*> checkers_;  // owned by shards_
  std::unique_ptr<ShardedChecker> shards_;
  uint64_t events_ = 0;
};

// The devices' statistics added up, as the JSON "accelerator" block of a
// multi-device check shows them: counts and times summed, `events` the
// trace's (`trace_events`), the capabilities the first device's (the devices
// are of one backend and shape). Host time per event is then the devices'
// summed host time over the trace's events.
OffloadStats sum_stats(std::span<const OffloadStats> devices, uint64_t trace_events);

}  // namespace raceaccel::offload
