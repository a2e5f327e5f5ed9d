// The share of accesses decided on chip with and without slot recycling
// (a measurement, not a test; run by hand; docs/hardware.md, "Accesses
// decided on chip"): the software device with 8 slots (the built-in
// Verilator kernel's count; 32-bit clocks, 16 read clocks, no cache) and
// with 64 (the card shape), on
//   - the trace of `raceaccel gen --threads 16 --events 200000` (generated
//     in memory with the same options): thread 0 forks all 16 at the start
//     and joins them at the end, so no slot ever frees;
//   - short-lived threads (tests/common/short_lived_trace.hpp, seed 1):
//     20,000 workers, at most 6 alive, forked and joined by main only, and
//     the same with the test's mix (a quarter forked by workers, 15 % joined
//     by another worker, 15 % joined late, a few never joined or revived).
//
// With `verilator` (when built in), the built-in Verilated kernel instead:
// 8 slots, 16-bit clocks, a 256 × 4 metadata cache.
//
//   slot_recycling_bench [software|verilator]
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "../common/short_lived_trace.hpp"
#include "driver/device.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

namespace {

using namespace raceaccel;

std::string backend = "software";

void measure(const std::string& name, unsigned slots, const std::function<std::function<bool(Event&)>()>& source) {
  // Re-import is on by default (on the software model; the RTL kernel has
  // no import-line yet): recycling off and on, then on without re-import.
  struct Mode {
    bool recycle, reimport;
  };
  for (const Mode mode : {Mode{false, true}, Mode{true, true}, Mode{true, false}}) {
    const bool recycle = mode.recycle;
    driver::DeviceOptions options;
    options.backend = backend;
    options.software_slots = slots;
    auto device = driver::open_device(options);
    offload::OffloadOptions oo;
    oo.recycle_slots = recycle;
    oo.reimport = mode.reimport;
    offload::OffloadChecker checker(*device, oo);
    auto next = source();
    Event e;
    uint64_t n = 0;
    while (next(e)) checker.process(e, n++);
    checker.finish();
    const offload::OffloadStats s = checker.stats();
    std::string causes;
    for (size_t i = 0; i < s.causes.size(); ++i) {
      if (s.causes[i] == 0) continue;
      causes += " " + std::string(offload::escalation_cause_name(static_cast<offload::EscalationCause>(i))) + "=" +
                std::to_string(s.causes[i]);
    }
    slots = s.capabilities.slots;
    std::printf(
        "%s, %u slots, recycling %s, re-import %s: %llu events, %llu accesses, %llu on chip (%.1f %%), %llu recycles "
        "(%llu taken later), %llu slotless threads, %llu lines re-imported;%s\n",
        name.c_str(), slots, recycle ? "on " : "off", mode.reimport ? "on " : "off", static_cast<unsigned long long>(n),
        static_cast<unsigned long long>(s.access_commands), static_cast<unsigned long long>(s.on_chip()),
        100.0 * static_cast<double>(s.on_chip()) / static_cast<double>(s.access_commands),
        static_cast<unsigned long long>(s.slot_recycles), static_cast<unsigned long long>(s.slots_taken_later),
        static_cast<unsigned long long>(s.slotless_threads), static_cast<unsigned long long>(s.reimports),
        causes.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) backend = argv[1];
  const auto gen16 = [] {
    GeneratorOptions g;
    g.threads = 16;
    g.events = 200000;
    auto generator = std::make_shared<TraceGenerator>(g);
    return std::function<bool(Event&)>([generator](Event& e) { return generator->next(e); });
  };
  const auto short_lived = [](bool mixed) {
    return [mixed] {
      test::ShortLivedOptions o;
      o.threads = 20000;
      o.live = 6;
      if (!mixed) {
        o.join_by_other_percent = o.unjoined_percent = o.never_joined = o.revives = o.worker_fork_percent = 0;
      }
      auto trace = std::make_shared<test::ShortLivedTrace>(o);
      return std::function<bool(Event&)>([trace](Event& e) { return trace->next(e); });
    };
  };
  for (const unsigned slots : backend == "software" ? std::vector<unsigned>{8u, 64u} : std::vector<unsigned>{8u}) {
    measure("gen --threads 16 --events 200000", slots, gen16);
    measure("short-lived, joined by main", slots, short_lived(false));
    measure("short-lived, mixed", slots, short_lived(true));
  }
}
