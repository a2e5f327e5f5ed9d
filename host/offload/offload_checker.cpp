#include "offload/offload_checker.hpp"

#include <algorithm>

namespace raceaccel::offload {

OffloadChecker::OffloadChecker(driver::Device& device, const OffloadOptions& options)
    : device_(device),
      transport_(device, {options.batch_words, options.bucket_bits, options.timeout}),
      core_(transport_, transport_.shape(), std::min(transport_.capabilities().objects, options.sync_objects),
            options.reimport && transport_.capabilities().imports_lines(), options.recycle_slots,
            options.atomics_on_chip && transport_.capabilities().checks_atomics()) {
  // The stat_* registers count since the device was opened, and one device
  // may serve several traces (check TRACE...): this checker's share only.
  device_at_start_ = device_.statistics();
}

uint64_t OffloadChecker::next_gap() {
  gap_state_ ^= gap_state_ << 13;
  gap_state_ ^= gap_state_ >> 7;
  gap_state_ ^= gap_state_ << 17;
  return 1 + gap_state_ % (2 * kSampleEvery - 1);  // 1 .. 2·kSampleEvery - 1, mean kSampleEvery
}

std::chrono::nanoseconds OffloadChecker::device_time() const {
  return transport_.stats().launch_time + transport_.stats().records_time;
}

template <typename Apply>
void OffloadChecker::timed(Apply&& apply) {
  ++calls_;
  if (--until_sample_ != 0) {
    apply();
    return;
  }
  until_sample_ = next_gap();
  ++sampled_calls_;
  const std::chrono::nanoseconds device_before = device_time();
  const auto start = std::chrono::steady_clock::now();
  apply();
  sampled_ += std::chrono::steady_clock::now() - start - (device_time() - device_before);
}

void OffloadChecker::process(const Event& e, uint64_t index) {
  timed([&] { core_.process(e, index); });
}

void OffloadChecker::process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) {
  timed([&] { core_.process_parts(e, index, parts); });
}

void OffloadChecker::finish() {
  const std::chrono::nanoseconds device_before = device_time();
  const auto start = std::chrono::steady_clock::now();
  core_.finish();
  in_finish_ += std::chrono::steady_clock::now() - start - (device_time() - device_before);
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
  // The sample scaled to every call, plus what was timed whole.
  const double scale = sampled_calls_ == 0 ? 0.0 : static_cast<double>(calls_) / static_cast<double>(sampled_calls_);
  const auto estimate = std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>(sampled_.count()) * scale)) +
                        in_finish_ + t.records_time;
  s.host_time = std::max(estimate, std::chrono::nanoseconds{0});
  s.device = device_.statistics();
  for (const driver::StatisticRegister& r : driver::statistic_registers()) {
    s.device.*r.field -= device_at_start_.*r.field;
  }
  return s;
}

}  // namespace raceaccel::offload
