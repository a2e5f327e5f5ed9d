#include "offload/multi_device_checker.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace raceaccel::offload {

MultiDeviceChecker::MultiDeviceChecker(std::span<driver::Device* const> devices, const OffloadOptions& options) {
  if (devices.empty() || devices.size() > kMaxDevices)
    throw std::invalid_argument("multi-device checking: devices must be in [1, " + std::to_string(kMaxDevices) + "]");
  std::vector<std::unique_ptr<Detector>> shards;
  for (driver::Device* device : devices) {
    auto checker = std::make_unique<OffloadChecker>(*device, options);
    checkers_.push_back(checker.get());
    shards.push_back(std::move(checker));
  }
  // The --jobs defaults: 4 KiB blocks (a page stays on one device, as its
  // TouchedPages entry and the generator's per-thread pages do) and a ring
  // of 8,192-event batches.
  ShardedChecker::Options sharding;
  shards_ = std::make_unique<ShardedChecker>(std::move(shards), sharding);
}

void MultiDeviceChecker::process(const Event& e, uint64_t index) {
  ++events_;
  shards_->process(e, index);
}

void MultiDeviceChecker::finish() { shards_->finish(); }

std::vector<OffloadStats> MultiDeviceChecker::device_stats() {
  std::vector<OffloadStats> out;
  out.reserve(checkers_.size());
  for (OffloadChecker* c : checkers_) out.push_back(c->stats());
  return out;
}

OffloadStats sum_stats(std::span<const OffloadStats> devices, uint64_t trace_events) {
  OffloadStats sum;
  if (devices.empty()) return sum;
  sum.capabilities = devices.front().capabilities;
  for (const OffloadStats& d : devices) {
    sum.early_batches += d.early_batches;
    sum.escalations += d.escalations;
    sum.spills += d.spills;
    sum.read_share_escalations += d.read_share_escalations;
    sum.read_clock_spills += d.read_clock_spills;
    sum.read_clock_imports += d.read_clock_imports;
    sum.lastwrite_imports += d.lastwrite_imports;
    sum.lastwrite_spill_imports += d.lastwrite_spill_imports;
    sum.kept_read_clocks_peak += d.kept_read_clocks_peak;
    sum.reclaims += d.reclaims;
    sum.stale_placeholder_spills += d.stale_placeholder_spills;
    sum.reimports += d.reimports;
    sum.reimported_read_clocks += d.reimported_read_clocks;
    sum.reimported_more_clocks += d.reimported_more_clocks;
    // Every device sees every thread: counts of threads are not added up.
    sum.slot_recycles = std::max(sum.slot_recycles, d.slot_recycles);
    sum.slotless_threads = std::max(sum.slotless_threads, d.slotless_threads);
    sum.slots_taken_later = std::max(sum.slots_taken_later, d.slots_taken_later);
    sum.overflow_evictions = std::max(sum.overflow_evictions, d.overflow_evictions);
    sum.fell_back = sum.fell_back || d.fell_back;
    sum.forced += d.forced;
    sum.atomic_commands += d.atomic_commands;
    sum.atomic_conflicts += d.atomic_conflicts;
    sum.set_rows += d.set_rows;
    sum.sync_commands += d.sync_commands;
    sum.object_loads += d.object_loads;
    sum.device_races += d.device_races;
    sum.host_races += d.host_races;
    sum.free_commands += d.free_commands;
    for (size_t i = 0; i < sum.records_by_reason.size(); ++i) sum.records_by_reason[i] += d.records_by_reason[i];
    sum.access_commands += d.access_commands;
    sum.escalated_accesses += d.escalated_accesses;
    for (size_t i = 0; i < sum.causes.size(); ++i) sum.causes[i] += d.causes[i];
    sum.command_words += d.command_words;
    sum.batches += d.batches;
    sum.launch_time += d.launch_time;
    sum.records_time += d.records_time;
    sum.host_time += d.host_time;
    for (const driver::StatisticRegister& r : driver::statistic_registers()) sum.device.*r.field += d.device.*r.field;
  }
  sum.events = trace_events;
  return sum;
}

}  // namespace raceaccel::offload
