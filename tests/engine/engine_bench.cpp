// Cycles per event of the Verilated check engine (docs/hardware.md), from
// its cycle counter: a hit-dominated trace (thread-local and lock-protected
// data) on the default cache and a miss-heavy one on a 2 x 2 cache. A
// benchmark run by `make bench`, not a test.
#include <cstdio>

#include "Vengine_default.h"
#include "Vengine_tinycache.h"
#include "engine_checker.hpp"
#include "gen/generator.hpp"

using namespace raceaccel;
using namespace raceaccel::sim;

int main() {
  for (int kind = 0; kind < 2; ++kind) {
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
    EngineConfig c{
        .slots = 8, .clk_bits = 16, .sets = kind == 0 ? 64u : 2u, .ways = kind == 0 ? 4u : 2u, .stall_percent = 0};
    c.max_mem_latency = 1;
    TraceGenerator generator(g);
    EngineStats s;
    if (kind == 0) {
      EngineChecker<Vengine_default> engine(c);
      Event e;
      for (uint64_t i = 0; generator.next(e); ++i) engine.process(e, i);
      engine.finish();
      s = engine.stats();
    } else {
      EngineChecker<Vengine_tinycache> engine(c);
      Event e;
      for (uint64_t i = 0; generator.next(e); ++i) engine.process(e, i);
      engine.finish();
      s = engine.stats();
    }
    const double per_event = static_cast<double>(s.cycles) / static_cast<double>(s.events);
    const double per_command = static_cast<double>(s.cycles) / static_cast<double>(s.commands);
    std::printf("  %s: %llu events, %llu commands, %llu misses, %.3f cycles/event, %.3f cycles/command\n",
                kind == 0 ? "hit-dominated (64x4 cache)" : "miss-heavy (2x2 cache)",
                static_cast<unsigned long long>(s.events), static_cast<unsigned long long>(s.commands),
                static_cast<unsigned long long>(s.misses), per_event, per_command);
  }
  return 0;
}
