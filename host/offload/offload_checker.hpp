// The offload engine: checks a trace on a Device (docs/driver.md).
//
// The protocol core (protocol_core.hpp: the clock mirror, clock history,
// sent-command table, escalation and race answering) on the batched device
// transport (device_transport.hpp): command words collect in large batches,
// one launch each; after a launch the records are handed to the core.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "detect/detector.hpp"
#include "driver/device.hpp"
#include "offload/device_transport.hpp"
#include "offload/protocol_core.hpp"

namespace raceaccel::offload {

struct OffloadOptions {
  // Command words per launch. Launches cost tens of µs on a card, so batches
  // are large by default; the minimum is one set-row command with its data.
  size_t batch_words = 64 * 1024;
  // Metadata bucket table: 2^bits buckets of cap_bucket_ways × 128 bytes in
  // device memory; 0: the device's default (default_bucket_bits: 2^20 on a
  // card, 2^16 on the models; device_transport.hpp).
  unsigned bucket_bits = 0;
  std::chrono::milliseconds timeout{120'000};  // per launch
  // Entries of the device's sync-object store the engine may use (at most
  // cap_objects; 0: every synchronization is sent as set-row).
  unsigned sync_objects = UINT32_MAX;
  // Hand host-owned lines back to the device when their state fits a line
  // again (import-line, on devices whose cap_features has it); off for
  // ablation: a line handed to the host then stays there until a full free.
  bool reimport = true;
  // A joined thread's slot goes to a thread forked after it (docs/driver.md,
  // "Slots and their recycling"); off only to measure what it buys.
  bool recycle_slots = true;
  // Send the access part of atomic operations to the chip (ops 9 and 10, on
  // devices whose cap_features has them; docs/kernel-interface.md, "Atomic
  // accesses on chip"); off for ablation: the host checks them itself.
  bool atomics_on_chip = true;
};

// The core's counts (ProtocolStats) and the batched transport's.
struct OffloadStats : ProtocolStats {
  uint64_t command_words = 0;  // sent to the device, set-row data included
  uint64_t batches = 0;
  std::chrono::nanoseconds launch_time{0};   // host clock, from to_device of the words to ap_done
  std::chrono::nanoseconds records_time{0};  // reading back and answering the records
  driver::Capabilities capabilities;
  driver::Statistics device;  // the stat_* registers, counted since this checker was made
  // Host time: inside process() and finish(), less the launches (to_device
  // of the words to ap_done); answering records is host time. Estimated:
  // process() is timed on a random sample of about one call in
  // OffloadChecker::kSampleEvery (the records and finish() are timed whole).
  std::chrono::nanoseconds host_time{0};
};

// The host's own cost per event, in ns (0 without events).
inline double host_ns_per_event(const OffloadStats& s) {
  return s.events == 0 ? 0.0 : static_cast<double>(s.host_time.count()) / static_cast<double>(s.events);
}

// The metadata cache's lookups: every read, write and free command looks
// its granule up (and may miss), while the device's `accesses` counts reads
// and writes only, so misses are measured against accesses + frees.
inline uint64_t cache_lookups(const OffloadStats& s) { return s.device.accesses + s.free_commands; }
// Hits over lookups, in [0, 1] (0 without lookups). A miss is a lookup;
// misses beyond the lookups (a device that counts otherwise) show as 0.
inline double cache_hit_rate(const OffloadStats& s) {
  const uint64_t lookups = cache_lookups(s);
  if (lookups == 0) return 0.0;
  const uint64_t misses = s.device.misses < lookups ? s.device.misses : lookups;
  return static_cast<double>(lookups - misses) / static_cast<double>(lookups);
}

class OffloadChecker final : public Detector {
 public:
  explicit OffloadChecker(driver::Device& device, const OffloadOptions& options = {});
  std::string_view name() const override { return "offload"; }
  void process(const Event& e, uint64_t index) override;
  // One shard of several (multi_device_checker.hpp): the core's
  // process_parts, timed as process() is.
  bool shardable() const override { return true; }
  void process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) override;
  // Races of every launched batch; call finish() first for the whole trace.
  const std::vector<Race>& races() const override { return core_.races(); }
  // Launches the last, partial batch.
  void finish() override;
  OffloadStats stats();
  size_t batch_words() const { return transport_.batch_words(); }

 private:
  driver::Device& device_;
  DeviceTransport transport_;
  ProtocolCore core_;
  // Host time is sampled: two clock reads per event cost tens of ns, a
  // large share of a host budget of 100 ns per event (docs/performance.md,
  // "Offload host side"). One process() call in kSampleEvery on average is
  // timed, at random gaps so that no period in a trace lines up with the
  // sample; launches and record answering inside a timed call are taken
  // out of it (the transport times those itself, every batch).
  static constexpr uint64_t kSampleEvery = 32;
  uint64_t next_gap();
  template <typename Apply>
  void timed(Apply&& apply);
  std::chrono::nanoseconds device_time() const;  // the transport's launch + records time so far

  driver::Statistics device_at_start_;  // stats() reports the device's counts since then
  uint64_t calls_ = 0, sampled_calls_ = 0;
  uint64_t until_sample_ = 1;                   // the first call is timed
  uint64_t gap_state_ = 0x9E3779B97F4A7C15ull;  // xorshift64 state of the gaps
  std::chrono::nanoseconds sampled_{0};         // timed process() calls, launches and records taken out
  std::chrono::nanoseconds in_finish_{0};       // finish(), launches and records taken out
};

}  // namespace raceaccel::offload
