// Cycles per event through the whole kernel (a benchmark, not a test; run
// by hand or by `make bench`): the offload engine on the Verilator device
// (8 slots, 32-bit clocks, 256 x 4), one batch per 64 K command words,
// the trace shapes of tests/engine/engine_bench.cpp (hit-dominated and
// miss-heavy, 4 threads, 20,000 events) but seed 5 and the generator's
// default 1 % lock mistakes, with no bus back-pressure and a
// memory latency drawn in [1, max] cycles for max = 1, 16, 64 and 200
// (200 is a card's DDR/HBM round trip under load, issue 11).
// Reports busy cycles (ap_start taken to ap_done, summed over launches) per
// event and per command word, and the simulation speed.
#include <chrono>
#include <cstdio>

#include "Vrac_kernel_default.h"
#include "driver/verilator/verilator_device_impl.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

int main() {
  using namespace raceaccel;
  std::printf("rac_kernel 8 slots x 32-bit clocks, 256 x 4 cache, batches of 64 K words\n");
  for (int kind = 0; kind < 2; ++kind) {
    for (unsigned latency : {1u, 16u, 64u, 200u}) {
      GeneratorOptions g;
      g.threads = 4;
      g.events = 20'000;
      g.seed = 5;
      g.local_weight = kind == 0 ? 60 : 10;
      g.locked_weight = kind == 0 ? 40 : 10;
      g.shared_weight = 0;
      g.racy_weight = kind == 0 ? 0 : 40;
      g.extras_weight = kind == 0 ? 0 : 40;
      driver::DeviceOptions d;
      d.seed = 1;
      d.max_latency = latency;
      d.stall_percent = 0;
      d.idle_percent = 0;
      driver::VerilatorDevice<Vrac_kernel_default> device(d, "bench");
      offload::OffloadChecker checker(device);
      TraceGenerator generator(g);
      Event e;
      uint64_t index = 0;
      const auto start = std::chrono::steady_clock::now();
      while (generator.next(e)) checker.process(e, index++);
      checker.finish();
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const offload::OffloadStats s = checker.stats();
      const double events = static_cast<double>(index);
      std::printf(
          "  %s, memory latency 1-%u: %llu events, %llu command words, %llu misses, %llu escalations, "
          "%.2f busy cycles/event, %.2f busy cycles/word, %.0f events/s simulated\n",
          kind == 0 ? "hit-dominated" : "miss-heavy", latency, static_cast<unsigned long long>(index),
          static_cast<unsigned long long>(s.command_words), static_cast<unsigned long long>(s.device.misses),
          static_cast<unsigned long long>(s.escalations), static_cast<double>(s.device.busy_cycles) / events,
          static_cast<double>(s.device.busy_cycles) / static_cast<double>(s.command_words), events / seconds);
    }
  }
  return 0;
}
