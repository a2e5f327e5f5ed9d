#include "offload/offload_checker.hpp"

#include <algorithm>

namespace raceaccel::offload {

OffloadChecker::OffloadChecker(driver::Device& device, const OffloadOptions& options)
    : device_(device),
      transport_(device, {options.batch_words, options.bucket_bits, options.timeout}),
      core_(transport_, transport_.shape(), std::min(transport_.capabilities().objects, options.sync_objects),
            options.reimport && transport_.capabilities().imports_lines(), options.recycle_slots) {
  // The stat_* registers count since the device was opened, and one device
  // may serve several traces (check TRACE...): this checker's share only.
  device_at_start_ = device_.statistics();
}

// Two clock reads per event (tens of ns) buy the host-time statistic.
void OffloadChecker::process(const Event& e, uint64_t index) {
  const auto start = std::chrono::steady_clock::now();
  core_.process(e, index);
  in_calls_ += std::chrono::steady_clock::now() - start;
}

void OffloadChecker::finish() {
  const auto start = std::chrono::steady_clock::now();
  core_.finish();
  in_calls_ += std::chrono::steady_clock::now() - start;
}

OffloadStats OffloadChecker::stats() {
  OffloadStats s;
  static_cast<ProtocolStats&>(s) = core_.stats();
  const DeviceTransportStats& t = transport_.stats();
  s.command_words = t.command_words;
  s.batches = t.batches;
  s.launch_time = t.launch_time;
  s.records_time = t.records_time;
  s.capabilities = transport_.capabilities();
  s.host_time = in_calls_ > t.launch_time ? in_calls_ - t.launch_time : std::chrono::nanoseconds{0};
  s.device = device_.statistics();
  for (const driver::StatisticRegister& r : driver::statistic_registers()) {
    s.device.*r.field -= device_at_start_.*r.field;
  }
  return s;
}

}  // namespace raceaccel::offload
