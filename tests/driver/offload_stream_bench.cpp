// Command stream per event of the offload engine, locks as set-rows against
// locks on the device's sync-object store (a benchmark, not a test; run by
// hand). The traces of docs/performance.md ("Offload through the software
// device"): `raceaccel gen -t 16 -n 2000000 -s 42` and `-t 100 ... -s 43`,
// generated in memory with the same options, through the software device
// (64 slots, 32-bit clocks, 64 sync objects) in 64 Ki-word batches. Both
// configurations run `runs` times, interleaved; command bytes are
// deterministic, CPU time (of this process) is reported as a median.
//
// Then the read-VC pool on two read-mostly traces — the generator's (`-t 16
// -s 44` with the weights below: reads of random size and offset) and
// whole-word reads of a 16-word and of a 48-word table
// (tests/driver/read_mostly_trace.hpp, 16 threads, 0.2 % half-word reads) —
// through the software device with a
// pool of 16 read clocks against none, interleaved: escalation records per
// event (deterministic), CPU time of the process and the host's time
// answering records (medians).
//
// Then the Verilator backend on two small mixes: busy cycles per event.
//
//   offload_stream_bench [runs=3] [events=2000000]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "driver/device.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"
#include "read_mostly_trace.hpp"

namespace {

using namespace raceaccel;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Run {
  offload::OffloadStats stats;
  size_t races = 0;
  double cpu = 0;
};

Run run(const std::vector<Event>& events, unsigned sync_objects, const char* backend = "software",
        unsigned read_vcs = 16) {
  driver::DeviceOptions d;
  d.backend = backend;
  d.software_read_vcs = read_vcs;
  auto device = driver::open_device(d);
  offload::OffloadOptions o;
  o.sync_objects = sync_objects;
  const double start = cpu_seconds();
  offload::OffloadChecker checker(*device, o);
  uint64_t index = 0;
  for (const Event& e : events) checker.process(e, index++);
  checker.finish();
  Run r;
  r.cpu = cpu_seconds() - start;
  r.stats = checker.stats();
  r.races = checker.races().size();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 3;
  const uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2'000'000;
  for (const auto& [threads, seed] : {std::pair<uint32_t, uint64_t>{16, 42}, {100, 43}}) {
    GeneratorOptions g;
    g.threads = threads;
    g.events = n;
    g.seed = seed;
    TraceGenerator generator(g);
    std::vector<Event> events;
    Event e;
    uint64_t lock_events = 0, other_sync = 0;
    while (generator.next(e)) {
      events.push_back(e);
      if (e.op >= Op::Acquire && e.op <= Op::ReleaseShared) {
        ++lock_events;
      } else if (e.op != Op::Read && e.op != Op::Write && e.op != Op::Alloc && e.op != Op::Free) {
        ++other_sync;
      }
    }
    std::printf("%u threads, seed %llu: %llu lock events, %llu other synchronization events\n", threads,
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(lock_events),
                static_cast<unsigned long long>(other_sync));
    std::vector<double> cpu[2];
    Run last[2];
    for (int i = 0; i < runs; ++i) {
      for (int on_chip = 0; on_chip < 2; ++on_chip) {
        last[on_chip] = run(events, on_chip != 0 ? UINT32_MAX : 0);
        cpu[on_chip].push_back(last[on_chip].cpu);
      }
    }
    for (int on_chip = 0; on_chip < 2; ++on_chip) {
      std::sort(cpu[on_chip].begin(), cpu[on_chip].end());
      const offload::OffloadStats& s = last[on_chip].stats;
      const double ev = static_cast<double>(events.size());
      std::printf(
          "%u threads, seed %llu, %s: %zu events, %llu command words = %.1f bytes/event; %llu set-rows, %llu "
          "acquire/release, %llu load-objects, %llu accesses (%llu forced); %llu escalations; %zu races; "
          "CPU median %.2f s of %d\n",
          threads, static_cast<unsigned long long>(seed), on_chip != 0 ? "locks on chip" : "locks as set-rows",
          events.size(), static_cast<unsigned long long>(s.command_words),
          16.0 * static_cast<double>(s.command_words) / ev, static_cast<unsigned long long>(s.set_rows),
          static_cast<unsigned long long>(s.sync_commands), static_cast<unsigned long long>(s.object_loads),
          static_cast<unsigned long long>(s.device.accesses), static_cast<unsigned long long>(s.forced),
          static_cast<unsigned long long>(s.escalations), last[on_chip].races, cpu[on_chip][cpu[on_chip].size() / 2],
          runs);
    }
    if (last[0].races != last[1].races) {
      std::printf("  the two configurations disagree on the races: a bug\n");
      return 1;
    }
  }
  for (int trace = 0; trace < 3; ++trace) {
    std::vector<Event> events;
    Event e;
    if (trace == 0) {
      GeneratorOptions g;
      g.threads = 16;
      g.events = n;
      g.seed = 44;
      g.local_weight = 10;
      g.locked_weight = 10;
      g.shared_weight = 70;
      g.racy_weight = 2;
      g.extras_weight = 8;
      TraceGenerator generator(g);
      while (generator.next(e)) events.push_back(e);
    } else {
      test::ReadMostlyTrace words(45, 16, trace == 1 ? 16 : 48, n, 2);
      while (words.next(e)) events.push_back(e);
    }
    const char* name = trace == 0   ? "generator read-mostly, seed 44"
                       : trace == 1 ? "whole-word reads of 16 words, seed 45"
                                    : "whole-word reads of 48 words, seed 45";
    std::vector<double> cpu[2], host[2];
    Run last[2];
    for (int i = 0; i < runs; ++i) {
      for (int pool = 0; pool < 2; ++pool) {
        last[pool] = run(events, UINT32_MAX, "software", pool != 0 ? 16 : 0);
        cpu[pool].push_back(last[pool].cpu);
        host[pool].push_back(std::chrono::duration<double>(last[pool].stats.records_time).count());
      }
    }
    for (int pool = 0; pool < 2; ++pool) {
      std::sort(cpu[pool].begin(), cpu[pool].end());
      std::sort(host[pool].begin(), host[pool].end());
      const offload::OffloadStats& s = last[pool].stats;
      const double ev = static_cast<double>(events.size());
      std::printf(
          "%s, %s: %zu events, %llu escalations = %.4f per event (%llu read-clock "
          "spills, %llu clocks carried, %llu LASTWRITE imports, %llu read-share records); %zu races; CPU median "
          "%.2f s, answering records %.3f s, of %d\n",
          name, pool != 0 ? "pool of 16" : "no pool", events.size(), static_cast<unsigned long long>(s.escalations),
          static_cast<double>(s.escalations) / ev, static_cast<unsigned long long>(s.read_clock_spills),
          static_cast<unsigned long long>(s.read_clock_imports), static_cast<unsigned long long>(s.lastwrite_imports),
          static_cast<unsigned long long>(s.read_share_escalations), last[pool].races, cpu[pool][cpu[pool].size() / 2],
          host[pool][host[pool].size() / 2], runs);
    }
    if (last[0].races != last[1].races) {
      std::printf("  the two configurations disagree on the races: a bug\n");
      return 1;
    }
  }
  // The Verilated kernel (8 slots, 16 sync objects): busy cycles per event
  // on the mixes of bench/offload_bench.cpp (4 threads, 20,000 events,
  // seed 11; mix 1 sharing-heavy). Deterministic for a given trace.
  for (int mix = 0; mix < 2; ++mix) {
    GeneratorOptions g;
    g.threads = 4;
    g.events = 20'000;
    g.seed = 11;
    if (mix == 1) {
      g.local_weight = 10;
      g.locked_weight = 20;
      g.shared_weight = 40;
      g.racy_weight = 10;
      g.extras_weight = 20;
    }
    TraceGenerator generator(g);
    std::vector<Event> events;
    Event e;
    while (generator.next(e)) events.push_back(e);
    for (int on_chip = 0; on_chip < 2; ++on_chip) {
      Run r;
      try {
        r = run(events, on_chip != 0 ? UINT32_MAX : 0, "verilator");
      } catch (const driver::DeviceError& err) {
        std::printf("verilator: %s\n", err.what());
        return 0;
      }
      const double ev = static_cast<double>(events.size());
      std::printf("verilator, mix %d, %s: %.1f bytes/event, %.2f busy cycles/event, %zu races\n", mix,
                  on_chip != 0 ? "locks on chip" : "locks as set-rows",
                  16.0 * static_cast<double>(r.stats.command_words) / ev,
                  static_cast<double>(r.stats.device.busy_cycles) / ev, r.races);
    }
  }
  return 0;
}
