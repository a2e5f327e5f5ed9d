// `raceaccel check`: runs a detector over one or more traces and reports races.
#include <fmt/format.h>
#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/app.hpp"
#include "cli/backend_check.hpp"
#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/json_output.hpp"
#include "cli/output_file.hpp"
#include "cli/progress.hpp"
#include "cli/shared_device.hpp"
#include "common/exit_codes.hpp"
#include "detect/detector.hpp"
#include "detect/sharded_checker.hpp"
#include "driver/registry.hpp"
#include "offload/multi_device_checker.hpp"
#include "offload/stats_json.hpp"
#include "report/race_report.hpp"
#include "report/sarif.hpp"
#include "report/suppressions.hpp"
#include "symbolize/replay_reports.hpp"
#include "trace/input.hpp"
#include "trace/program_info.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {
namespace {

struct CheckOptions {
  std::string detector = "fasttrack";
  unsigned jobs = 1;      // --jobs: shards checked on their own threads (ShardedChecker)
  BackendOptions device;  // --backend: check on a device through the offload engine
  bool json = false;
  std::string sarif;         // --sarif FILE: a SARIF 2.1.0 log of the reports
  std::string suppressions;  // --suppressions FILE: ThreadSanitizer-format suppressions
  std::vector<std::string> traces;
};

struct TraceResult {
  std::string file;
  std::string format;
  uint64_t events = 0;
  std::vector<RaceReport> races;  // those not suppressed
  uint64_t suppressed = 0;
  SymbolTable symbols;
  std::optional<ProgramInfo> program;  // a runtime recording's (record=): reports as the live run printed them
  int status = exit_code::kOk;
  std::string error;
  std::string accelerator;          // --backend: the device statistics, for stderr after the report
  nlohmann::json accelerator_json;  // and for --json (null without a device)
};

uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<uint64_t>(st.st_size);
}

// Drops the reports a suppression matches; returns how many.
uint64_t apply_suppressions(std::vector<RaceReport>& races, const Suppressions& suppressions,
                            const SymbolTable& symbols, const std::string& trace) {
  if (suppressions.empty()) return 0;
  const auto suppressed = [&](const RaceReport& rep) {
    const TraceRaceNames names = trace_race_names(rep, symbols);
    return suppressions.match(trace_race_subject(names, trace)) != nullptr;
  };
  const size_t before = races.size();
  races.erase(std::remove_if(races.begin(), races.end(), suppressed), races.end());
  return before - races.size();
}

// The device path of one trace: one offload engine, or one per device
// (--devices N: MultiDeviceChecker), and their statistics.
struct OffloadRun {
  std::string backend;
  std::unique_ptr<offload::OffloadChecker> one;
  std::unique_ptr<offload::MultiDeviceChecker> several;
  Detector* detector() const { return one ? static_cast<Detector*>(one.get()) : several.get(); }
  void stats(TraceResult& result, uint64_t events) {
    if (one) {
      const offload::OffloadStats s = one->stats();
      result.accelerator = format_offload_stats(result.file, backend, s);
      result.accelerator_json = offload_stats_json(s);
      return;
    }
    const std::vector<offload::OffloadStats> each = several->device_stats();
    const offload::OffloadStats total = offload::sum_stats(each, events);
    const std::string label = fmt::format("{}, {} devices", backend, each.size());
    result.accelerator = format_offload_stats(result.file, label, total);
    for (size_t i = 0; i < each.size(); ++i) {
      result.accelerator +=
          format_offload_stats(fmt::format("{} device {} of {}", result.file, i + 1, each.size()), backend, each[i]);
    }
    result.accelerator_json = offload::stats_json(total, each);
  }
};

TraceResult check_one(const std::string& path, const CheckOptions& o, const Suppressions& suppressions,
                      SharedDevice* shared) {
  TraceResult result;
  result.file = path;
  std::optional<OffloadRun> offload;
  try {
    if (shared != nullptr) {
      const std::vector<driver::Device*>& devices = shared->for_next_trace();
      offload.emplace();
      offload->backend = std::string(devices.front()->backend());
      if (devices.size() == 1) {
        offload->one = std::make_unique<offload::OffloadChecker>(*devices.front(), offload_options(o.device));
      } else {
        offload->several = std::make_unique<offload::MultiDeviceChecker>(devices, offload_options(o.device));
      }
    }
  } catch (const driver::DeviceError& err) {
    result.status = device_error_status(err);
    result.error = path + ": " + err.what();
    return result;
  }
  // Declared outside the try so that races found before a malformed place
  // are still reported (the binary reader delivers every event before it).
  std::unique_ptr<TraceReader> reader;
  // --jobs N > 1: N shards by address, the same races in the same order.
  std::unique_ptr<Detector> in_process;
  ShardedChecker* shards = nullptr;
  if (!offload && o.jobs > 1) {
    ShardedChecker::Options options;
    options.jobs = o.jobs;
    auto checker = std::make_unique<ShardedChecker>(o.detector, options);
    shards = checker.get();
    in_process = std::move(checker);
  } else if (!offload) {
    in_process = make_detector(o.detector);
  }
  Detector* detector = offload ? offload->detector() : in_process.get();
  uint64_t index = 0;
  std::optional<Failure> failure;
  try {
    failure = failure_of(path, [&] {
      reader = open_trace(path);
      result.format = reader->format() == TraceFormat::Std ? "std" : "binary";
      Progress progress("check " + path, file_size(path));
      Event e;
      while (reader->next(e)) {
        detector->process(e, index++);
        // The progress line every 64 K events; bytes_read() is a virtual
        // call, kept off the per-event path.
        if ((index & 0xFFFF) == 0) progress.show(index, reader->bytes_read());
      }
      if (shards != nullptr) shards->finish();
    });
    // The events before a malformed place are checked too; a shard's
    // failure there came from an earlier event, so it is the one to report.
    if (failure && shards != nullptr) {
      if (auto earlier = failure_of(path, [&] { shards->finish(); })) failure = earlier;
    }
    if (shards != nullptr && shards->failed_event()) index = *shards->failed_event() + 1;  // as one detector counts
    // The last batch(es), also after a malformed place. With several
    // devices a device's failure may be met only here, at an earlier event
    // than a malformed place: it is the one to report, as for --jobs.
    if (offload) {
      if (auto late = failure_of(path, [&] { detector->finish(); })) failure = late;
    }
  } catch (const driver::DeviceError& err) {
    if (shared != nullptr) shared->note_failure(path, err);
    failure = Failure{device_error_status(err), path + ": " + err.what()};
  }
  // Events counted as one device counts them: up to the one that failed.
  if (offload && offload->several && offload->several->failed_event()) index = *offload->several->failed_event() + 1;
  if (failure) {
    result.status = failure->status;
    result.error = failure->message;
  }
  result.events = index;
  result.races = coalesce_races(detector->races());
  if (reader) result.symbols = reader->symbols();
  if (reader && reader->program_info() != nullptr) result.program = *reader->program_info();
  result.suppressed = apply_suppressions(result.races, suppressions, result.symbols, path);
  if (offload) {
    try {
      offload->stats(result, index);
    } catch (const driver::DeviceError& err) {
      result.accelerator = path + ": no accelerator statistics: " + err.what() + "\n";
    }
  }
  if (result.status == exit_code::kOk && !result.races.empty()) result.status = exit_code::kRaces;
  return result;
}

// Malformed input and I/O failures outrank races: the report is incomplete.
int combine(int a, int b) {
  auto rank = [](int s) {
    switch (s) {
      case exit_code::kIo: return 4;
      case exit_code::kMalformed: return 3;
      case exit_code::kNoDevice: return 2;
      case exit_code::kDeviceMemory: return 2;
      case exit_code::kUsage: return 2;  // a device option this trace cannot use (e.g. too large a batch)
      case exit_code::kCapacity: return 2;
      case exit_code::kRaces: return 1;
      default: return 0;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

std::string_view status_name(int status) {
  switch (status) {
    case exit_code::kOk: return "ok";
    case exit_code::kRaces: return "races";
    case exit_code::kMalformed: return "malformed";
    case exit_code::kCapacity: return "capacity";
    case exit_code::kNoDevice: return "no-device";
    case exit_code::kDeviceMemory: return "device-memory";
    case exit_code::kUsage: return "usage";
    default: return "io-error";
  }
}

// --suppressions: the file read and parsed before any trace; a missing or
// malformed file is a usage error (status 2), as a bad option value is.
std::optional<Suppressions> load_suppressions(const std::string& path) {
  if (path.empty()) return Suppressions{};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  // A directory opens as a stream and reads as nothing, without failing it.
  struct stat st {};
  const bool directory = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  if (!in || in.bad() || directory) {
    std::cerr << "raceaccel: --suppressions: cannot read " << path << '\n';
    return std::nullopt;
  }
  try {
    return Suppressions::parse(text.str(), path);
  } catch (const SuppressionError& err) {
    std::cerr << "raceaccel: --suppressions: " << err.what() << '\n';
    return std::nullopt;
  }
}

// --sarif: the log written like every other output of the CLI (OutputFile:
// a failed write leaves the old file alone); an I/O failure is status 74.
int write_sarif(const std::string& path, nlohmann::json log) {
  escape_invalid_utf8(log);
  try {
    OutputFile out(path);
    out.stream() << log.dump(2) << '\n';
    out.close();
  } catch (const IoError& err) {
    std::cerr << "raceaccel: --sarif: " << err.what() << '\n';
    return exit_code::kIo;
  }
  return exit_code::kOk;
}

// A recording with program info: the live run's report text when its
// modules are found as recorded; otherwise a note per module and the
// trace's own form. Races on memory annotated benign and repeated pairs of
// sites are not printed, as live, but still counted (the verdict is the
// detector's).
void print_races_text(const TraceResult& r, const std::string& path) {
  if (r.program) {
    ReplayedReports replayed;
    try {
      replayed = replay_reports(path, *r.program, r.races);
    } catch (const std::exception& err) {
      replayed.notes = {fmt::format("raceaccel: note: cannot symbolize the reports: {}", err.what())};
      replayed.symbolized = false;
    }
    for (const std::string& note : replayed.notes) std::cout << note << '\n';
    if (replayed.symbolized) {
      std::cout << replayed.text;
      if (replayed.benign != 0) {
        std::cout << fmt::format("raceaccel: {} on memory annotated benign not printed, as in the live run\n",
                                 replayed.benign == 1 ? "1 race" : fmt::format("{} races", replayed.benign));
      }
      return;
    }
  }
  for (const RaceReport& rep : r.races) std::cout << format_race_text(rep, r.symbols, path) << '\n';
}

int run_check(const CheckOptions& o) {
  const std::optional<Suppressions> suppressions = load_suppressions(o.suppressions);
  if (!suppressions) return exit_code::kUsage;
  const bool count_suppressed = !o.suppressions.empty();
  std::unique_ptr<SharedDevice> device;
  if (!o.device.backend.empty()) {
    try {
      device = std::make_unique<SharedDevice>(open_devices(o.device));
    } catch (const driver::DeviceError& err) {
      std::cerr << "raceaccel: " << err.what() << '\n';
      return device_error_status(err);
    }
  }
  // One report whatever the backend: the label names the algorithm (the
  // device path checks with FastTrack's rules too), the backend is on stderr.
  const std::string label = o.detector;
  int status = exit_code::kOk;
  uint64_t total_events = 0;
  uint64_t total_suppressed = 0;
  std::vector<SarifRace> sarif_races;
  nlohmann::json races = nlohmann::json::array();
  nlohmann::json traces = nlohmann::json::array();
  for (const std::string& path : o.traces) {
    TraceResult r = check_one(path, o, *suppressions, device.get());
    status = combine(status, r.status);
    total_events += r.events;
    total_suppressed += r.suppressed;
    if (!o.sarif.empty()) {
      for (const RaceReport& rep : r.races) sarif_races.push_back(trace_race_sarif(rep, r.symbols, path));
    }
    if (o.json) {
      if (!r.error.empty()) std::cerr << "raceaccel: " << r.error << '\n';
      for (const RaceReport& rep : r.races) races.push_back(race_to_json(rep, r.symbols, path));
      nlohmann::json t = {{"file", path},
                          {"format", r.format},
                          {"events", r.events},
                          {"races", r.races.size()},
                          {"status", status_name(r.status)}};
      if (count_suppressed) t["suppressed"] = r.suppressed;
      if (!r.error.empty()) t["error"] = r.error;
      if (!r.accelerator_json.is_null()) t["accelerator"] = r.accelerator_json;
      traces.push_back(std::move(t));
    } else {
      print_races_text(r, path);
      std::cout << fmt::format("{}: {} events{}, {} race{}{} ({})\n", path, r.events,
                               r.error.empty() ? "" : " before the error", r.races.size(),
                               r.races.size() == 1 ? "" : "s",
                               count_suppressed ? fmt::format(", {} suppressed", r.suppressed) : "", label);
      // The error follows the trace's report, in this order also when
      // stdout and stderr go to one file.
      if (!r.error.empty()) {
        std::cout.flush();
        std::cerr << "raceaccel: " << r.error << '\n';
      }
    }
    if (!r.accelerator.empty()) {
      std::cout.flush();  // the statistics follow the report on a terminal
      std::cerr << r.accelerator;
    }
  }
  if (o.json) {
    nlohmann::json doc = {{"tool", "raceaccel"}, {"version", RACEACCEL_VERSION},
                          {"detector", label},   {"events", total_events},
                          {"races", races},      {"traces", traces}};
    if (count_suppressed) doc["suppressed"] = total_suppressed;
    print_json(std::cout, std::move(doc));
  }
  std::cout.flush();
  if (!o.sarif.empty()) {
    SarifRunInfo run;
    run.version = RACEACCEL_VERSION;
    run.suppressed = total_suppressed;
    run.execution_successful = status == exit_code::kOk || status == exit_code::kRaces;
    status = combine(status, write_sarif(o.sarif, sarif_log(sarif_races, run)));
  }
  return status;
}

}  // namespace

CommandRunner add_check_command(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand("check", "Check traces for data races (exit 0: none, 66: races, 65: malformed)");
  CLI::Option* detector =
      sub->add_option("--detector", o->detector, "Detector: fasttrack (default) or djit (the golden reference)")
          ->check(CLI::IsMember(detector_names()));
  CLI::Option* jobs =
      sub->add_option("--jobs", o->jobs, "Check on N threads, each owning a share of the addresses (default 1)")
          ->check(unsigned_in(1, ShardedChecker::kMaxJobs))
          ->type_name("N");
  add_backend_options(*sub, o->device, detector);
  // Several devices shard by --devices N, not by --jobs (docs/driver.md, "Several devices").
  sub->get_option("--backend")->excludes(jobs);
  sub->add_flag("--json", o->json, "Print one JSON document (schema in docs/reports.md)");
  sub->add_option("--sarif", o->sarif, "Also write the reports as a SARIF 2.1.0 log to FILE (docs/reports.md)")
      ->type_name("FILE");
  sub->add_option("--suppressions", o->suppressions,
                  "Drop the reports that a ThreadSanitizer-format suppressions FILE matches (docs/reports.md)")
      ->type_name("FILE");
  sub->add_option("traces", o->traces, "Trace files (STD text or binary, sniffed); - reads stdin")->required();
  return [o] { return run_check(*o); };
}

}  // namespace raceaccel
