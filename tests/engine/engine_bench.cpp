// Cycles per event of the Verilated check engine (docs/hardware.md), from
// its cycle counter: a hit-dominated trace (thread-local and lock-protected
// data) on the default cache, a miss-heavy one on a 2 x 2 cache, and a
// read-mostly one (data written before the threads start, then read by all
// of them) on the default cache with and without the read-VC pool; then
// every trace file named on the command line (recorded programs, from
// scripts/bench.sh) with and without the pool. A benchmark run by
// `make bench`, not a test.
#include <algorithm>
#include <cstdio>
#include <string>

#include "Vengine_default.h"
#include "Vengine_nopool.h"
#include "Vengine_tinycache.h"
#include "engine_checker.hpp"
#include "engine_models.hpp"
#include "gen/generator.hpp"
#include "trace/trace_reader.hpp"

using namespace raceaccel;
using namespace raceaccel::sim;

namespace {

// Bytes of command words a kernel would read for these commands: 16 per
// command, plus the row data words of every SetRow and LoadObj.
double command_bytes(const EngineStats& s, unsigned slots, unsigned clk_bits) {
  const double row_words = static_cast<double>(driver::LineShape{slots, clk_bits, 0}.row_words());
  return 16.0 * static_cast<double>(s.commands) + 16.0 * row_words * static_cast<double>(s.set_rows + s.object_loads);
}

template <typename Model, typename Source>
EngineStats run(Source& source, const EngineConfig& c) {
  EngineChecker<Model> engine(c);
  Event e;
  for (uint64_t i = 0; source.next(e); ++i) engine.process(e, i);
  engine.finish();
  return engine.stats();
}

template <typename Model>
EngineStats run(const GeneratorOptions& g, const EngineConfig& c) {
  TraceGenerator generator(g);
  return run<Model>(generator, c);
}

template <typename Model>
EngineStats run(const std::string& path, const EngineConfig& c) {
  const auto reader = open_trace(path);
  return run<Model>(*reader, c);
}

void print(const char* trace, const char* variant, const EngineStats& s) {
  const double events = static_cast<double>(s.events);
  std::printf(
      "  %s, %s: %llu events, %llu commands (%llu set-row, %llu sync ops, %llu object loads), %llu misses, "
      "%llu escalations, %llu read-VC spills, %.3f cycles/event, %.3f cycles/command, command bytes/event %.1f "
      "here (8 x 16-bit) and %.1f at 64 x 32-bit clocks\n",
      trace, variant, static_cast<unsigned long long>(s.events), static_cast<unsigned long long>(s.commands),
      static_cast<unsigned long long>(s.set_rows), static_cast<unsigned long long>(s.sync_ops),
      static_cast<unsigned long long>(s.object_loads), static_cast<unsigned long long>(s.misses),
      static_cast<unsigned long long>(s.escalations), static_cast<unsigned long long>(s.read_vc_spills),
      static_cast<double>(s.cycles) / events, static_cast<double>(s.cycles) / static_cast<double>(s.commands),
      command_bytes(s, 8, 16) / events, command_bytes(s, 64, 32) / events);
}

GeneratorOptions trace(uint32_t local, uint32_t locked, uint32_t shared, uint32_t racy, uint32_t extras) {
  GeneratorOptions g;
  g.threads = 4;
  g.events = 20'000;
  g.seed = 77;
  g.local_weight = local;
  g.locked_weight = locked;
  g.shared_weight = shared;
  g.racy_weight = racy;
  g.extras_weight = extras;
  g.mistake_percent = 0;
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  EngineConfig pooled = default_model();
  pooled.max_mem_latency = 1;
  pooled.stall_percent = 0;
  EngineConfig no_pool = pooled;  // the nopool model: the default shape without a pool
  no_pool.read_vcs = 0;
  EngineConfig tiny = tinycache_model();
  tiny.max_mem_latency = 1;
  tiny.stall_percent = 0;

  const GeneratorOptions hits = trace(60, 40, 0, 0, 0);
  const GeneratorOptions misses = trace(10, 10, 0, 40, 40);
  const GeneratorOptions read_mostly = trace(40, 20, 40, 0, 0);
  for (unsigned objects : {0u, 16u}) {
    const char* sync = objects == 0 ? "sync as set-row" : "locks on chip";
    EngineConfig c = pooled;
    c.objects = objects;
    print("hit-dominated (64x4 cache)", sync, run<Vengine_default>(hits, c));
    EngineConfig t = tiny;
    t.objects = std::min(objects, 2u);
    print("miss-heavy (2x2 cache)", sync, run<Vengine_tinycache>(misses, t));
  }
  EngineConfig c = pooled;
  c.objects = 16;
  EngineConfig n = no_pool;
  n.objects = 16;
  print("read-mostly (64x4 cache)", "locks on chip, 16-entry read-VC pool", run<Vengine_default>(read_mostly, c));
  print("read-mostly (64x4 cache)", "locks on chip, no read-VC pool", run<Vengine_nopool>(read_mostly, n));
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    const std::string name = path + " (64x4 cache)";
    print(name.c_str(), "locks on chip, 16-entry read-VC pool", run<Vengine_default>(path, c));
    print(name.c_str(), "locks on chip, no read-VC pool", run<Vengine_nopool>(path, n));
  }
  return 0;
}
