// `raceaccel check`: runs a detector over one or more traces and reports races.
#include <fmt/format.h>
#include <sys/stat.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/exit_codes.hpp"
#include "cli/progress.hpp"
#include "detect/detector.hpp"
#include "report/race_report.hpp"
#include "trace/input.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {
namespace {

struct CheckOptions {
  std::string detector = "fasttrack";
  bool json = false;
  std::vector<std::string> traces;
};

struct TraceResult {
  std::string file;
  std::string format;
  uint64_t events = 0;
  std::vector<RaceReport> races;
  SymbolTable symbols;
  int status = exit_code::kOk;
  std::string error;
};

uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<uint64_t>(st.st_size);
}

TraceResult check_one(const std::string& path, const std::string& detector_name) {
  TraceResult result;
  result.file = path;
  // Declared outside the try so that races found before a malformed place
  // are still reported (the binary reader delivers every event before it).
  std::unique_ptr<TraceReader> reader;
  auto detector = make_detector(detector_name);
  uint64_t index = 0;
  const auto failure = failure_of(path, [&] {
    reader = open_trace(path);
    result.format = reader->format() == TraceFormat::Std ? "std" : "binary";
    Progress progress("check " + path, file_size(path));
    Event e;
    while (reader->next(e)) {
      detector->process(e, index++);
      progress.update(index, reader->bytes_read());
    }
  });
  if (failure) {
    result.status = failure->status;
    result.error = failure->message;
  }
  result.events = index;
  result.races = coalesce_races(detector->races());
  if (reader) result.symbols = reader->symbols();
  if (result.status == exit_code::kOk && !result.races.empty()) result.status = exit_code::kRaces;
  return result;
}

// Malformed input and I/O failures outrank races: the report is incomplete.
int combine(int a, int b) {
  auto rank = [](int s) {
    switch (s) {
      case exit_code::kIo: return 4;
      case exit_code::kMalformed: return 3;
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
    default: return "io-error";
  }
}

int run_check(const CheckOptions& o) {
  int status = exit_code::kOk;
  uint64_t total_events = 0;
  nlohmann::json races = nlohmann::json::array();
  nlohmann::json traces = nlohmann::json::array();
  for (const std::string& path : o.traces) {
    TraceResult r = check_one(path, o.detector);
    status = combine(status, r.status);
    total_events += r.events;
    if (!r.error.empty()) std::cerr << "raceaccel: " << r.error << '\n';
    if (o.json) {
      for (const RaceReport& rep : r.races) races.push_back(race_to_json(rep, r.symbols, path));
      nlohmann::json t = {{"file", path},
                          {"format", r.format},
                          {"events", r.events},
                          {"races", r.races.size()},
                          {"status", status_name(r.status)}};
      if (!r.error.empty()) t["error"] = r.error;
      traces.push_back(std::move(t));
    } else {
      for (const RaceReport& rep : r.races) std::cout << format_race_text(rep, r.symbols, path) << '\n';
      std::cout << fmt::format("{}: {} events{}, {} race{} ({})\n", path, r.events,
                               r.error.empty() ? "" : " before the error", r.races.size(),
                               r.races.size() == 1 ? "" : "s", o.detector);
    }
  }
  if (o.json) {
    nlohmann::json doc = {{"tool", "raceaccel"},    {"version", RACEACCEL_VERSION},
                          {"detector", o.detector}, {"events", total_events},
                          {"races", races},         {"traces", traces}};
    std::cout << doc.dump(2) << '\n';
  }
  std::cout.flush();
  return status;
}

}  // namespace

CommandRunner add_check_command(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand("check", "Check traces for data races (exit 0: none, 66: races, 65: malformed)");
  sub->add_option("--detector", o->detector, "Detector: fasttrack (default) or djit (the golden reference)")
      ->check(CLI::IsMember(detector_names()));
  sub->add_flag("--json", o->json, "Print one JSON document (schema in docs/reports.md)");
  sub->add_option("traces", o->traces, "Trace files (STD text or binary, sniffed); - reads stdin")->required();
  return [o] { return run_check(*o); };
}

}  // namespace raceaccel
