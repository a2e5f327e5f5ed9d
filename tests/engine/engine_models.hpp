// What the engine tests share: the Verilated models' parameters and the race
// keys they compare with DJIT+.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "detect/djit.hpp"
#include "detect/race.hpp"
#include "engine_checker.hpp"

namespace raceaccel::sim {

// The five models' parameters (tests/engine/CMakeLists.txt): the host side
// must know the cache shape, the clock width and whether there is a read-VC
// pool (it changes the line format).
inline EngineConfig default_model() {
  return {.slots = 8, .clk_bits = 16, .sets = 64, .ways = 4, .objects = 16, .read_vcs = 16};
}
inline EngineConfig tinycache_model() {
  return {.slots = 8, .clk_bits = 16, .sets = 2, .ways = 2, .objects = 2, .read_vcs = 2};
}
inline EngineConfig fewslots_model() {
  return {.slots = 4, .clk_bits = 16, .sets = 16, .ways = 2, .objects = 4, .read_vcs = 4};
}
inline EngineConfig narrow_model() {
  return {.slots = 8, .clk_bits = 4, .sets = 16, .ways = 4, .objects = 8, .read_vcs = 4};
}
inline EngineConfig directmap_model() {
  return {.slots = 8, .clk_bits = 16, .sets = 32, .ways = 1, .objects = 1, .read_vcs = 0};
}

// Per racing byte: the byte, the event of the second access, the kind and,
// where the earlier access is a write, its thread and clock (the earlier
// read of a read-write race may be any concurrent reader).
using Key = std::tuple<uint64_t, uint64_t, int, ThreadId, uint64_t>;

inline std::vector<Key> keys(const std::vector<Race>& races) {
  std::vector<Key> out;
  for (const Race& r : races) {
    const bool unique_prev = r.kind != RaceKind::ReadWrite;
    out.emplace_back(r.addr, r.event, static_cast<int>(r.kind), unique_prev ? r.prev_tid : 0,
                     unique_prev ? r.prev_clock : 0);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The engine (model Model, configuration c) and the golden DJIT+ detector
// on the same events: their race keys, the engine's count of race records
// and its statistics.
struct GoldenRun {
  std::vector<Key> golden, engine;
  size_t races = 0;
  EngineStats stats;
};
template <typename Model>
GoldenRun run_against_djit(const EngineConfig& c, const std::vector<Event>& events) {
  EngineChecker<Model> engine(c);
  DjitDetector golden;
  for (uint64_t i = 0; i < events.size(); ++i) {
    golden.process(events[i], i);
    engine.process(events[i], i);
  }
  engine.finish();
  return {keys(golden.races()), keys(engine.races()), engine.races().size(), engine.stats()};
}

}  // namespace raceaccel::sim
