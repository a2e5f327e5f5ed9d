// `raceaccel check --backend …`: the device path of check (docs/cli.md).
// Opening the backend, the exit status of a device failure, and the
// accelerator statistics printed after each trace.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/device_status.hpp"
#include "driver/device.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel {

// The largest --batch-words (see add_backend_options).
inline constexpr size_t kMaxBatchWords = size_t{1} << 18;
// The largest --bucket-bits: 2^20 buckets of 4 ways are 512 MiB, which the
// software and Verilator models hold twice in host memory.
inline constexpr unsigned kMaxBucketBits = 20;

struct BackendOptions {
  std::string backend;  // empty: the in-process detector
  std::string xclbin;
  unsigned device = 0;
  unsigned devices = 1;  // --devices N: N devices of the backend, address-interleaved (cards device .. device+N-1)
  size_t batch_words = 64 * 1024;
  // --bucket-bits; 0: the backend's (offload::default_bucket_bits: 2^20 on
  // a card, 2^16 on the models, whose table lives in host memory).
  unsigned bucket_bits = 0;
  bool reimport = true;         // --no-reimport: host-owned lines stay on the host (ablation)
  bool atomics_on_chip = true;  // --no-atomics-on-chip: the host checks atomic accesses (ablation)
};

// --backend, --xclbin, --device, --devices, --batch-words, --bucket-bits on
// `check`; --backend excludes `detector`, --devices needs --backend.
void add_backend_options(CLI::App& app, BackendOptions& o, CLI::Option* detector);
offload::OffloadOptions offload_options(const BackendOptions& o);
// The --devices devices of the backend: cards --device, --device + 1, ...
// for xrt. A device that cannot be opened throws its DeviceError, naming
// which of the N it was (a missing card: Unavailable, status 69).
std::vector<std::unique_ptr<driver::Device>> open_devices(const BackendOptions& o);
// Several "accelerator: …" lines for stderr.
std::string format_offload_stats(const std::string& trace, std::string_view backend, const offload::OffloadStats& s);
// The "accelerator" object of `check --json` (docs/reports.md): accesses,
// on_chip, escalations by cause, cycles (null when not modelled),
// command_bytes, host_ns_per_event.
nlohmann::json offload_stats_json(const offload::OffloadStats& s);

}  // namespace raceaccel
