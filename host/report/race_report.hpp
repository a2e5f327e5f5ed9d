// Turns the per-byte races of a detector into reports: races of one event on
// adjacent bytes with the same earlier access become one report with a size.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/symbols.hpp"
#include "detect/race.hpp"
#include "report/sarif.hpp"
#include "report/suppressions.hpp"

namespace raceaccel {

struct RaceReport {
  uint64_t addr = 0;
  uint64_t size = 1;
  Race race;  // the race on the first byte
};

// Races from the detectors arrive sorted by (event, byte); others are sorted here.
std::vector<RaceReport> coalesce_races(const std::vector<Race>& races);

// "trace.std: event 5: write-read race on V123 (1 byte): read by T1 at site 456; earlier write by T0@4 at site 345"
std::string format_race_text(const RaceReport& report, const SymbolTable& symbols, const std::string& trace);
nlohmann::json race_to_json(const RaceReport& report, const SymbolTable& symbols, const std::string& trace);

// A trace's race as suppressions see it. Traces have no stacks: each access
// is one frame whose function is its site in decimal ("20") and whose file
// is the trace's path; the memory's name (STD variable or hex address) plays
// the global variable's name. So `race:^20$` silences races with an access
// at site 20, `race:counter` races on `counter`. The subject views `names`
// and `trace`: both must outlive it.
struct TraceRaceNames {
  std::string current_site, previous_site, location;
};
TraceRaceNames trace_race_names(const RaceReport& report, const SymbolTable& symbols);
RaceSubject trace_race_subject(const TraceRaceNames& names, std::string_view trace);

// A trace's race as a SARIF result: frames named by site, the trace as the
// artifact; the fingerprint from the sites, kinds of access and the memory's name.
SarifRace trace_race_sarif(const RaceReport& report, const SymbolTable& symbols, const std::string& trace);

}  // namespace raceaccel
