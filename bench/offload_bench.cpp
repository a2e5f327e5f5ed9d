// Throughput of the offload path (host/offload/ over a driver::Device) on
// generated traces, in events per second, with what the device reports:
// batches, escalations, cycles per event (timed backends) and host time per
// launch. The Verilator backend simulates every cycle, so it gets a smaller
// trace. A benchmark, not a test (`make bench`).
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <tuple>
#include <vector>

#include "driver/device.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel {
namespace {

GeneratorOptions mix(int kind, uint32_t threads, uint64_t events) {
  GeneratorOptions o;
  o.threads = threads;
  o.events = events;
  o.seed = 11;
  if (kind == 1) {  // sharing-heavy, as in detector_bench
    o.local_weight = 10;
    o.locked_weight = 20;
    o.shared_weight = 40;
    o.racy_weight = 10;
    o.extras_weight = 20;
  }
  return o;
}

const std::vector<Event>& trace(int kind, uint32_t threads, uint64_t events) {
  static std::map<std::tuple<int, uint32_t, uint64_t>, std::vector<Event>> cache;
  auto& out = cache[{kind, threads, events}];
  if (out.empty()) {
    TraceGenerator g(mix(kind, threads, events));
    Event e;
    while (g.next(e)) out.push_back(e);
  }
  return out;
}

void run_offload(benchmark::State& state, const char* backend, uint64_t events_per_trace) {
  const auto& events = trace(static_cast<int>(state.range(0)), static_cast<uint32_t>(state.range(1)), events_per_trace);
  driver::DeviceOptions options;
  options.backend = backend;
  std::unique_ptr<driver::Device> device;
  try {
    device = driver::open_device(options);
  } catch (const driver::DeviceError& e) {
    state.SkipWithError(e.what());
    return;
  }
  offload::OffloadStats stats;
  for (auto _ : state) {
    offload::OffloadChecker checker(*device);
    uint64_t i = 0;
    for (const Event& e : events) checker.process(e, i++);
    checker.finish();
    benchmark::DoNotOptimize(checker.races().size());
    stats = checker.stats();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events.size()));
  const double n = static_cast<double>(events.size());
  state.counters["batches"] = static_cast<double>(stats.batches);
  state.counters["words/event"] = static_cast<double>(stats.command_words) / n;
  state.counters["escalations/event"] = static_cast<double>(stats.escalations) / n;
  state.counters["us/launch"] =
      stats.batches == 0 ? 0.0 : std::chrono::duration<double, std::micro>(stats.launch_time).count() / stats.batches;
  // Device statistics are cumulative since the device was opened: divide by
  // everything it has seen.
  const double all_events = n * static_cast<double>(state.iterations());
  if (stats.device.busy_cycles != 0) state.counters["cycles/event"] = stats.device.busy_cycles / all_events;
}

void BM_OffloadSoftware(benchmark::State& state) { run_offload(state, "software", 1'000'000); }
void BM_OffloadVerilator(benchmark::State& state) { run_offload(state, "verilator", 20'000); }
BENCHMARK(BM_OffloadSoftware)->ArgsProduct({{0, 1}, {4, 64}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OffloadVerilator)->ArgsProduct({{0, 1}, {4}})->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace raceaccel

BENCHMARK_MAIN();
