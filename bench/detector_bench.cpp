// Throughput of the detectors and the trace readers on generated traces,
// in events per second. Traces are generated once, outside the timed loop.
#include <benchmark/benchmark.h>

#include <map>
#include <sstream>

#include "detect/detector.hpp"
#include "gen/generator.hpp"
#include "trace/binary_format.hpp"
#include "trace/std_format.hpp"

namespace raceaccel {
namespace {

// A hit-dominated mix (thread-local and lock-protected) and a sharing-heavy one.
GeneratorOptions mix(int kind, uint32_t threads) {
  GeneratorOptions o;
  o.threads = threads;
  o.events = 1'000'000;
  o.seed = 11;
  if (kind == 1) {
    o.local_weight = 10;
    o.locked_weight = 20;
    o.shared_weight = 40;
    o.racy_weight = 10;
    o.extras_weight = 20;
  }
  return o;
}

const std::vector<Event>& trace(int kind, uint32_t threads) {
  static std::map<std::pair<int, uint32_t>, std::vector<Event>> cache;
  auto& events = cache[{kind, threads}];
  if (events.empty()) {
    TraceGenerator g(mix(kind, threads));
    Event e;
    while (g.next(e)) events.push_back(e);
  }
  return events;
}

void run_detector(benchmark::State& state, const char* name) {
  const auto& events = trace(static_cast<int>(state.range(0)), static_cast<uint32_t>(state.range(1)));
  for (auto _ : state) {
    auto detector = make_detector(name);
    uint64_t i = 0;
    for (const Event& e : events) detector->process(e, i++);
    benchmark::DoNotOptimize(detector->races().size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events.size()));
}

void BM_FastTrack(benchmark::State& state) { run_detector(state, "fasttrack"); }
void BM_Djit(benchmark::State& state) { run_detector(state, "djit"); }
BENCHMARK(BM_FastTrack)->ArgsProduct({{0, 1}, {4, 64}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Djit)->ArgsProduct({{0, 1}, {4, 64}})->Unit(benchmark::kMillisecond);

void BM_BinaryRead(benchmark::State& state) {
  const auto& events = trace(0, 8);
  std::ostringstream out;
  BinaryWriterOptions wo;
  wo.compress = state.range(0) != 0;
  BinaryWriter writer(out, wo);
  SymbolTable symbols;
  for (const Event& e : events) writer.write(e, symbols);
  writer.finish();
  const std::string bytes = out.str();
  for (auto _ : state) {
    BinaryReader reader(Input::from_memory(bytes, "bench"));
    Event e;
    uint64_t n = 0;
    while (reader.next(e)) ++n;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events.size()));
  state.counters["bytes_per_event"] = static_cast<double>(bytes.size()) / static_cast<double>(events.size());
}
BENCHMARK(BM_BinaryRead)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_StdRead(benchmark::State& state) {
  GeneratorOptions o = mix(0, 8);
  o.std_only = true;
  TraceGenerator g(o);
  std::ostringstream out;
  StdWriter writer(out);
  Event e;
  while (g.next(e)) writer.write(e, g.symbols());
  const std::string text = out.str();
  for (auto _ : state) {
    StdReader reader(Input::from_memory(text, "bench"));
    uint64_t n = 0;
    while (reader.next(e)) ++n;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * o.events));
}
BENCHMARK(BM_StdRead)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace raceaccel

BENCHMARK_MAIN();
