// The host side of the offload path, in ns per event (issue 11 item 7,
// docs/performance.md "Offload host side"). Three ways through the same
// OffloadChecker (protocol core + batched DeviceTransport):
//   BM_HostSide      a pass-through device that answers nothing
//                    (bench/pass_through_device.hpp): the host's own cost
//   BM_HostSoftware  the software device (the model's work on the same CPU)
//   BM_HostVerilator the Verilator device (cycle-level; a shorter trace)
// The trace is what `raceaccel gen -t THREADS -n EVENTS -s 42` writes,
// generated in memory (reading a file is not what is measured); set
// RACEACCEL_BENCH_TRACE to a trace file to run that instead.
//
// Counters, each over the events:
//   ns/event          the thread's CPU time inside process() and finish()
//                     (the checker's construction, which allocates its batch
//                     buffers, is not counted), the device's work included
//                     when it runs in this thread (the software and
//                     Verilator devices do);
//   device_ns/event   of that, the CPU time inside the device's start(),
//                     wait() and buffer transfers (cpu_timed_device.hpp): the
//                     model's own work (about 0 for the pass-through device);
//   host_cpu_ns/event the difference: the host's own CPU time, escalations
//                     answered included. The honest host-side figure: no
//                     device model's work, and no waits for a core (other
//                     processes' use of the caches still shows: on the
//                     shared VM it rose about 25 % from load 2.5 to 10);
//   host_ns/event     OffloadStats' host_time (what `check --json` reports):
//                     wall time less the device launches, from a sample of
//                     calls, so a loaded machine's waits for a core count.
// A benchmark, not a test.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "bench/cpu_timed_device.hpp"
#include "bench/pass_through_device.hpp"
#include "driver/device.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {
namespace {

const std::vector<Event>& trace(uint32_t threads, uint64_t events) {
  static std::map<std::pair<uint32_t, uint64_t>, std::vector<Event>> cache;
  auto& out = cache[{threads, events}];
  if (!out.empty()) return out;
  Event e;
  if (const char* path = std::getenv("RACEACCEL_BENCH_TRACE")) {
    auto reader = open_trace(path);
    while (out.size() < events && reader->next(e)) out.push_back(e);
    return out;
  }
  GeneratorOptions o;  // `raceaccel gen`'s defaults but for these three
  o.threads = threads;
  o.events = events;
  o.seed = 42;
  TraceGenerator g(o);
  while (g.next(e)) out.push_back(e);
  return out;
}

using bench::thread_cpu_ns;

// range(1): 0 checks atomic accesses on the host (the options'
// atomics_on_chip off), 1 on the device (ops 9-10).
void run(benchmark::State& state, driver::Device& inner, uint64_t events_per_trace) {
  bench::CpuTimedDevice device(inner);
  offload::OffloadOptions options;
  if (state.range(1) == 0) options.atomics_on_chip = false;
  const auto& events = trace(static_cast<uint32_t>(state.range(0)), events_per_trace);
  double cpu_ns = 0, device_ns = 0;
  offload::OffloadStats stats;
  size_t races = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto checker = std::make_unique<offload::OffloadChecker>(device, options);
    state.ResumeTiming();
    const double device_before = device.cpu_ns();
    const double start = thread_cpu_ns();
    uint64_t i = 0;
    for (const Event& e : events) checker->process(e, i++);
    checker->finish();
    cpu_ns += thread_cpu_ns() - start;
    device_ns += device.cpu_ns() - device_before;
    races = checker->races().size();
    stats = checker->stats();
    state.PauseTiming();
    checker.reset();
    state.ResumeTiming();
  }
  const double n = static_cast<double>(events.size());
  const double per_event = n * static_cast<double>(state.iterations());
  state.counters["ns/event"] = cpu_ns / per_event;
  state.counters["device_ns/event"] = device_ns / per_event;
  state.counters["host_cpu_ns/event"] = (cpu_ns - device_ns) / per_event;
  state.counters["host_ns/event"] = offload::host_ns_per_event(stats);
  state.counters["events"] = n;
  state.counters["races"] = static_cast<double>(races);
  state.counters["escalations/event"] = static_cast<double>(stats.escalations) / n;
  state.counters["words/event"] = static_cast<double>(stats.command_words) / n;
}

void BM_HostSide(benchmark::State& state) {
  bench::PassThroughDevice device;
  run(state, device, 2'000'000);
}

void open_and_run(benchmark::State& state, const char* backend, uint64_t events) {
  driver::DeviceOptions options;
  options.backend = backend;
  std::unique_ptr<driver::Device> device;
  try {
    device = driver::open_device(options);
  } catch (const driver::DeviceError& e) {
    state.SkipWithError(e.what());
    return;
  }
  run(state, *device, events);
}

void BM_HostSoftware(benchmark::State& state) { open_and_run(state, "software", 2'000'000); }
// Every cycle simulated: a short trace, one pass.
void BM_HostVerilator(benchmark::State& state) { open_and_run(state, "verilator", 20'000); }

// Args: threads, atomics on chip (0: checked on the host).
BENCHMARK(BM_HostSide)->Args({16, 1})->Args({16, 0})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HostSoftware)->Args({16, 1})->Args({16, 0})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HostVerilator)->Args({16, 1})->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace raceaccel

BENCHMARK_MAIN();
