// Feeds events to one of raceaccel's detectors and prints the races it found
// (docs/api.md). Usage: feed_events [djit|fasttrack] [TRACE]
// The events are example_trace.hpp's, or a trace file's (STD or binary).
// Exit status as `raceaccel check`: 0 no race, 66 races, 2 bad usage,
// 65 malformed trace, 74 unreadable file.
#include <cstdio>
#include <memory>
#include <string>

#include "common/exit_codes.hpp"
#include "detect/detector.hpp"
#include "example_trace.hpp"
#include "report/race_report.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_reader.hpp"

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "fasttrack";
  // DJIT+ is the golden reference; FastTrack reports the same races, faster.
  std::unique_ptr<raceaccel::Detector> detector = raceaccel::make_detector(name);
  if (detector == nullptr) {
    std::fprintf(stderr, "feed_events: no detector '%s' (djit or fasttrack)\n", name.c_str());
    return raceaccel::exit_code::kUsage;
  }

  // Events go in trace order, each with its index in the trace (races name it).
  std::string source = "example";
  raceaccel::SymbolTable symbols;
  if (argc > 2) {
    source = argv[2];
    try {
      std::unique_ptr<raceaccel::TraceReader> reader = raceaccel::open_trace(source);
      raceaccel::Event event;
      for (uint64_t i = 0; reader->next(event); ++i) detector->process(event, i);
      symbols = reader->symbols();  // the trace's names, complete at its end
    } catch (const raceaccel::TraceError& e) {
      std::fprintf(stderr, "feed_events: %s\n", e.what());  // names the line or block
      return raceaccel::exit_code::kMalformed;
    } catch (const raceaccel::IoError& e) {
      std::fprintf(stderr, "feed_events: %s\n", e.what());
      return raceaccel::exit_code::kIo;
    }
  } else {
    const std::vector<raceaccel::Event> events = example::events();
    for (uint64_t i = 0; i < events.size(); ++i) detector->process(events[i], i);
    symbols = example::symbols();
  }
  detector->finish();

  // Per-byte races, coalesced into one report per racing access and range.
  const std::vector<raceaccel::RaceReport> reports = raceaccel::coalesce_races(detector->races());
  for (const raceaccel::RaceReport& report : reports) {
    std::printf("%s\n", raceaccel::format_race_text(report, symbols, source).c_str());
  }
  std::printf("%s: %zu race(s)\n", std::string(detector->name()).c_str(), reports.size());
  return reports.empty() ? raceaccel::exit_code::kOk : raceaccel::exit_code::kRaces;
}
