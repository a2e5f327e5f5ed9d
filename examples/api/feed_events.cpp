// Feeds events to one of raceaccel's detectors and prints the races it found
// (docs/api.md). Usage: feed_events [djit|fasttrack]   (default fasttrack)
// Exit status as `raceaccel check`: 0 no race, 66 races, 2 bad usage.
#include <cstdio>
#include <memory>
#include <string>

#include "common/exit_codes.hpp"
#include "detect/detector.hpp"
#include "example_trace.hpp"
#include "report/race_report.hpp"

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "fasttrack";
  // DJIT+ is the golden reference; FastTrack reports the same races, faster.
  std::unique_ptr<raceaccel::Detector> detector = raceaccel::make_detector(name);
  if (detector == nullptr) {
    std::fprintf(stderr, "feed_events: no detector '%s' (djit or fasttrack)\n", name.c_str());
    return raceaccel::exit_code::kUsage;
  }

  // Events go in trace order, each with its index in the trace (races name it).
  const std::vector<raceaccel::Event> events = example::events();
  for (uint64_t i = 0; i < events.size(); ++i) detector->process(events[i], i);
  detector->finish();

  // Per-byte races, coalesced into one report per racing access and range.
  const raceaccel::SymbolTable symbols = example::symbols();
  const std::vector<raceaccel::RaceReport> reports = raceaccel::coalesce_races(detector->races());
  for (const raceaccel::RaceReport& report : reports) {
    std::printf("%s\n", raceaccel::format_race_text(report, symbols, "example").c_str());
  }
  std::printf("%s: %zu race(s)\n", std::string(detector->name()).c_str(), reports.size());
  return reports.empty() ? raceaccel::exit_code::kOk : raceaccel::exit_code::kRaces;
}
