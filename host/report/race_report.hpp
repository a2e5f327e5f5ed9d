// Turns the per-byte races of a detector into reports: races of one event on
// adjacent bytes with the same earlier access become one report with a size.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/symbols.hpp"
#include "detect/race.hpp"

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

}  // namespace raceaccel
