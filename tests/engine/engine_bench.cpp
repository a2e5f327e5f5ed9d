// Cycles per event of the Verilated check engine (docs/hardware.md), from
// its cycle counter: a hit-dominated trace (thread-local and lock-protected
// data) on the default cache and a miss-heavy one on a 2 x 2 cache. A
// benchmark run by `make bench`, not a test.
#include <algorithm>
#include <cstdio>

#include "Vengine_default.h"
#include "Vengine_tinycache.h"
#include "engine_checker.hpp"
#include "gen/generator.hpp"

using namespace raceaccel;
using namespace raceaccel::sim;

// Bytes of command words a kernel would read for these commands: 16 per
// command, plus the row data words of every SetRow and LoadObj.
double command_bytes(const EngineStats& s, unsigned slots, unsigned clk_bits) {
  const double row_words = static_cast<double>((slots * clk_bits + 127) / 128);
  return 16.0 * static_cast<double>(s.commands) + 16.0 * row_words * static_cast<double>(s.set_rows + s.object_loads);
}

template <typename Model>
EngineStats run(const GeneratorOptions& g, const EngineConfig& c) {
  TraceGenerator generator(g);
  EngineChecker<Model> engine(c);
  Event e;
  for (uint64_t i = 0; generator.next(e); ++i) engine.process(e, i);
  engine.finish();
  return engine.stats();
}

int main() {
  for (int kind = 0; kind < 2; ++kind) {
    for (unsigned objects : {0u, 16u}) {
      GeneratorOptions g;
      g.threads = 4;
      g.events = 20'000;
      g.seed = 77;
      g.local_weight = kind == 0 ? 60 : 10;
      g.locked_weight = kind == 0 ? 40 : 10;
      g.shared_weight = 0;
      g.racy_weight = kind == 0 ? 0 : 40;
      g.extras_weight = kind == 0 ? 0 : 40;
      g.mistake_percent = 0;
      EngineConfig c{.slots = 8,
                     .clk_bits = 16,
                     .sets = kind == 0 ? 64u : 2u,
                     .ways = kind == 0 ? 4u : 2u,
                     .objects = kind == 0 ? objects : std::min(objects, 2u),
                     .stall_percent = 0};
      c.max_mem_latency = 1;
      const EngineStats s = kind == 0 ? run<Vengine_default>(g, c) : run<Vengine_tinycache>(g, c);
      const double events = static_cast<double>(s.events);
      std::printf(
          "  %s, %s: %llu events, %llu commands (%llu set-row, %llu sync ops, %llu object loads), %llu misses, "
          "%.3f cycles/event, %.3f cycles/command, command bytes/event %.1f here (8 x 16-bit) and %.1f at 64 x "
          "32-bit clocks\n",
          kind == 0 ? "hit-dominated (64x4 cache)" : "miss-heavy (2x2 cache)",
          c.objects == 0 ? "sync as set-row" : "locks on chip", static_cast<unsigned long long>(s.events),
          static_cast<unsigned long long>(s.commands), static_cast<unsigned long long>(s.set_rows),
          static_cast<unsigned long long>(s.sync_ops), static_cast<unsigned long long>(s.object_loads),
          static_cast<unsigned long long>(s.misses), static_cast<double>(s.cycles) / events,
          static_cast<double>(s.cycles) / static_cast<double>(s.commands), command_bytes(s, 8, 16) / events,
          command_bytes(s, 64, 32) / events);
    }
  }
  return 0;
}
