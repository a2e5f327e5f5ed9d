#include "cli/backend_check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cli/app.hpp"
#include "common/exit_codes.hpp"
#include "driver/registry.hpp"
#include "offload/multi_device_checker.hpp"
#include "offload/stats_json.hpp"

namespace raceaccel {

void add_backend_options(CLI::App& app, BackendOptions& o, CLI::Option* detector) {
  app.add_option("--backend", o.backend,
                 "Check on this device through the offload engine (default: the in-process detector)")
      ->check(CLI::IsMember(driver::backend_names()))
      ->excludes(detector);
  app.add_option("--xclbin", o.xclbin, "Card image for --backend xrt");
  CLI::Option* backend = app.get_option("--backend");
  app.add_option("--device", o.device, "Card index for --backend xrt (default 0)");
  // Several devices shard the addresses as --jobs does (docs/driver.md,
  // "Several devices"); the upper bound is the offload engine's.
  app.add_option("--devices", o.devices,
                 "Check on N devices of the backend, each owning a share of the addresses (xrt: cards --device to "
                 "--device + N - 1; default 1)")
      ->check(unsigned_in(1, offload::MultiDeviceChecker::kMaxDevices))
      ->type_name("N")
      ->needs(backend);
  // The batch buffers are allocated whole before the first event, on the
  // host and in device memory: with the default shape the software backend
  // peaks at 180 MB for 2^16 words and 2.5 GB for 2^20 (measured), and 2^26
  // exhausted memory on a 7-event trace. Larger batches buy nothing (a
  // launch costs microseconds), so the range stops at 2^18 (about 650 MB).
  app.add_option("--batch-words", o.batch_words, "Command words per launch (default 65536, at most 262144)")
      ->check(unsigned_in(1, kMaxBatchWords));
  app.add_option("--bucket-bits", o.bucket_bits,
                 "Metadata bucket table of 2^N buckets in device memory (default 20 on a card, 16 on the models)")
      ->check(unsigned_in(1, kMaxBucketBits));
  app.add_flag("!--no-reimport", o.reimport,
               "Keep lines the host took over on the host (no import-line commands; for measurements)");
  app.add_flag("!--no-atomics-on-chip", o.atomics_on_chip,
               "Check atomic accesses on the host, not with the device's ops 9-10 (for measurements)");
}

offload::OffloadOptions offload_options(const BackendOptions& o) {
  offload::OffloadOptions options;
  options.batch_words = o.batch_words;
  options.bucket_bits = o.bucket_bits;  // 0: the backend's default
  options.reimport = o.reimport;
  options.atomics_on_chip = o.atomics_on_chip;
  return options;
}

std::vector<std::unique_ptr<driver::Device>> open_devices(const BackendOptions& o) {
  std::vector<std::unique_ptr<driver::Device>> devices;
  for (unsigned i = 0; i < o.devices; ++i) {
    if (o.device + i < o.device) {  // past the last card index there is
      throw driver::DeviceError(driver::DeviceErrorKind::Unavailable,
                                fmt::format("--devices {}: no card index after {}", o.devices, o.device + i - 1));
    }
    // More cards than XRT finds: said before any is opened past the first
    // (whose errors — no --xclbin, an unreadable image, no card — come
    // first, as with one device). XRT's noop emulation opens any index, so
    // the count is what decides.
    if (i == 1 && o.backend == "xrt") {
      const std::vector<driver::DeviceInfo> all = driver::list_devices();
      const auto cards = static_cast<uint64_t>(std::count_if(
          all.begin(), all.end(), [](const driver::DeviceInfo& d) { return d.backend == "xrt" && d.available; }));
      if (uint64_t{o.device} + o.devices > cards) {
        throw driver::DeviceError(
            driver::DeviceErrorKind::Unavailable,
            fmt::format("--devices {}: cards {} to {} were asked for, and XRT finds {} card{}", o.devices, o.device,
                        uint64_t{o.device} + o.devices - 1, cards, cards == 1 ? "" : "s"));
      }
    }
    try {
      devices.push_back(driver::open_device(o.backend, o.xclbin, o.device + i));
    } catch (const driver::DeviceError& err) {
      if (o.devices == 1) throw;
      throw driver::DeviceError(
          err.kind(),
          fmt::format("--devices {}: device {} of {}{}: {}", o.devices, i + 1, o.devices,
                      o.backend == "xrt" ? fmt::format(" (card {})", o.device + i) : std::string(), err.what()));
    }
  }
  return devices;
}

std::string format_offload_stats(const std::string& trace, std::string_view backend, const offload::OffloadStats& s) {
  const driver::Statistics& d = s.device;
  const auto per_event = [&](uint64_t v) { return s.events == 0 ? 0.0 : static_cast<double>(v) / s.events; };
  std::string out = fmt::format("{}: accelerator ({}, {} slots, {}-bit clocks", trace, backend, s.capabilities.slots,
                                s.capabilities.clock_bits);
  out += s.capabilities.sets == 0 ? ", no metadata cache)\n"
                                  : fmt::format(", cache {} x {})\n", s.capabilities.sets, s.capabilities.ways);
  out += fmt::format("  events {}, command words {}, batches {}{}, device commands {}, accesses {}\n", s.events,
                     s.command_words, s.batches,
                     s.early_batches == 0 ? "" : fmt::format(" ({} launched early)", s.early_batches), d.commands,
                     d.accesses);
  if (d.cycles == 0) {
    out += "  cycles: not modelled by this backend\n";
  } else {
    out += fmt::format("  cycles {}, busy cycles {}, cycles/event {:.2f}\n", d.cycles, d.busy_cycles,
                       per_event(d.busy_cycles));
  }
  // The accelerator's own measure: accesses decided on chip. (The cache's
  // lookup hit rate below counts escalated commands too: they are looked
  // up like any other.)
  out += fmt::format("  accesses {}, decided on chip {} ({:.1f}%), escalated {}\n", s.access_commands, s.on_chip(),
                     s.access_commands == 0 ? 0.0 : 100.0 * static_cast<double>(s.on_chip()) / s.access_commands,
                     s.escalated_accesses);
  std::string causes;
  for (size_t i = 0; i < s.causes.size(); ++i) {
    if (s.causes[i] == 0) continue;
    causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ",
                          offload::escalation_cause_name(static_cast<offload::EscalationCause>(i)), s.causes[i]);
  }
  out += fmt::format("  escalations by cause: {}\n", causes.empty() ? "none" : causes);
  if (s.capabilities.sets != 0) {
    out += fmt::format("  cache lookups {}, misses {}, lookup hit rate {:.1f}%, evictions written back {}\n",
                       offload::cache_lookups(s), d.misses, 100.0 * offload::cache_hit_rate(s), d.writebacks);
  }
  const auto ms = [](std::chrono::nanoseconds t) { return std::chrono::duration<double, std::milli>(t).count(); };
  out += fmt::format(
      "  host time: launches {:.1f} ms ({:.1f} us per batch, to_device to done), answering records {:.1f} ms\n",
      ms(s.launch_time), s.batches == 0 ? 0.0 : 1000.0 * ms(s.launch_time) / s.batches, ms(s.records_time));
  out += fmt::format("  host side {:.1f} ms, {:.0f} ns per event (launches excluded)\n", ms(s.host_time),
                     offload::host_ns_per_event(s));
  out += fmt::format(
      "  escalations {} (forced {}, spills {}, reclaims {}), lines re-imported {}, races on device {} / on host {}{}\n",
      s.escalations, s.forced, s.spills, s.reclaims, s.reimports, s.device_races, s.host_races,
      s.fell_back ? fmt::format("; {} thread clocks outgrew the device: those threads checked on the "
                                "host from then on",
                                s.overflow_evictions)
                  : "");
  out += fmt::format("  slots: {} taken over from joined threads, {} threads without a slot\n", s.slot_recycles,
                     s.slotless_threads);
  return out;
}

nlohmann::json offload_stats_json(const offload::OffloadStats& s) { return offload::stats_json(s); }

}  // namespace raceaccel
