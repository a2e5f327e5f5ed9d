// Kernel-level differential test: random traces through the offload engine
// (host/offload/) on the Verilator device, against the golden DJIT+. Small
// batches (many launches, state carried from one to the next), a random bus
// seed, latency and back-pressure per trace, and the configurations that
// stress the kernel's own logic:
//  - the built-in model (8 slots, 32-bit clocks, 256 x 4);
//  - a 2 x 2 cache with a 4-bucket table: most fills and write-backs go to
//    the table, most write-backs conflict and spill to the host;
//  - more threads than slots (forced escalations).
// Lock acquire/release of threads with a slot run on the kernel's
// sync-object store (16 entries in the built-in model, 2 in the tiny one,
// where lock clocks are reloaded constantly).
// Every race must agree: (byte, first racing event, kind), and the whole
// record where the earlier access is a write. The memory model's protocol
// checks and the RTL assertions are live: a violation fails the launch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <tuple>

#include "../common/race_keys.hpp"
#include "Vrac_kernel_default.h"
#include "Vrac_kernel_tiny.h"
#include "detect/djit.hpp"
#include "driver/verilator/verilator_device_impl.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::kernel_test {
namespace {

using test::RaceKey;
std::vector<RaceKey> keys(const std::vector<Race>& races) { return test::race_keys(races); }

struct Suite {
  uint32_t min_threads, max_threads;
  int traces;
  size_t batch_words;
  unsigned bucket_bits;
  uint64_t seed0;
};

struct Totals {
  uint64_t events = 0, races = 0, escalations = 0, spills = 0, forced = 0, batches = 0, misses = 0, cycles = 0,
           busy_cycles = 0, commands = 0, sync_commands = 0, object_loads = 0;
};

template <typename Model>
Totals run_suite(const Suite& s) {
  Totals t;
  for (int i = 0; i < s.traces; ++i) {
    const uint64_t seed = s.seed0 + static_cast<uint64_t>(i);
    std::mt19937_64 rng(seed);
    auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
    GeneratorOptions g;
    g.seed = seed;
    g.threads = static_cast<uint32_t>(pick(s.min_threads, s.max_threads));
    g.events = pick(1500, 3000);
    g.racy_weight = static_cast<uint32_t>(pick(2, 8));
    g.mistake_percent = static_cast<uint32_t>(pick(0, 4));
    g.locks = static_cast<uint32_t>(pick(1, 10));
    g.std_only = i % 5 == 4;

    driver::DeviceOptions d;
    d.backend = "verilator";
    d.seed = seed * 31 + 7;
    d.max_latency = static_cast<unsigned>(pick(1, 24));
    d.stall_percent = static_cast<unsigned>(pick(0, 50));
    d.idle_percent = static_cast<unsigned>(pick(0, 20));
    driver::VerilatorDevice<Model> device(
        d, std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" + std::to_string(seed));
    offload::OffloadOptions oo;
    oo.batch_words = s.batch_words;
    oo.bucket_bits = s.bucket_bits;
    offload::OffloadChecker checker(device, oo);
    DjitDetector golden;
    TraceGenerator generator(g);
    Event e;
    uint64_t index = 0;
    while (generator.next(e)) {
      golden.process(e, index);
      checker.process(e, index);
      ++index;
    }
    checker.finish();
    const std::string what = "trace seed " + std::to_string(seed) + ", " + std::to_string(g.threads) + " threads";
    const bool same = keys(golden.races()) == keys(checker.races());
    EXPECT_TRUE(same) << what << ": " << golden.races().size() << " golden races, " << checker.races().size()
                      << " from the kernel";
    std::vector<Race> gr = golden.races(), orr = checker.races();
    auto by_key = [](const Race& a, const Race& b) { return std::tie(a.addr, a.event) < std::tie(b.addr, b.event); };
    std::sort(gr.begin(), gr.end(), by_key);
    std::sort(orr.begin(), orr.end(), by_key);
    for (size_t r = 0; same && r < gr.size(); ++r) {
      if (gr[r].kind != RaceKind::ReadWrite) {
        EXPECT_EQ(gr[r], orr[r]) << what << " race " << r;
      }
    }
    for (const std::string& v : device.sim().violations()) ADD_FAILURE() << what << ": " << v;
    const offload::OffloadStats st = checker.stats();
    t.events += index;
    t.races += gr.size();
    t.escalations += st.escalations;
    t.spills += st.spills;
    t.forced += st.forced;
    t.batches += st.batches;
    t.misses += st.device.misses;
    t.cycles += st.device.cycles;
    t.busy_cycles += st.device.busy_cycles;
    t.commands += st.command_words;
    t.sync_commands += st.sync_commands;
    t.object_loads += st.object_loads;
  }
  std::printf(
      "  %llu events, %llu races, %llu launches, %llu command words, %llu escalations (%llu spills, %llu "
      "forced), %llu misses, %llu acquire/release, %llu load-objects, %.2f busy cycles per event\n",
      static_cast<unsigned long long>(t.events), static_cast<unsigned long long>(t.races),
      static_cast<unsigned long long>(t.batches), static_cast<unsigned long long>(t.commands),
      static_cast<unsigned long long>(t.escalations), static_cast<unsigned long long>(t.spills),
      static_cast<unsigned long long>(t.forced), static_cast<unsigned long long>(t.misses),
      static_cast<unsigned long long>(t.sync_commands), static_cast<unsigned long long>(t.object_loads),
      static_cast<double>(t.busy_cycles) / static_cast<double>(std::max<uint64_t>(t.events, 1)));
  EXPECT_GT(t.races, 0u) << "the traces must contain races for agreement to mean something";
  EXPECT_GT(t.sync_commands, 0u) << "lock events of slotted threads run on the sync-object store";
  EXPECT_GT(t.batches, static_cast<uint64_t>(s.traces)) << "several launches per trace";
  return t;
}

TEST(KernelDifferential, DefaultConfiguration) {
  const Totals t = run_suite<Vrac_kernel_default>({2, 8, 40, 1024, 12, 1000});
  EXPECT_GE(t.events, 60'000u);
}

TEST(KernelDifferential, TinyCacheAndBucketTableSpill) {
  const Totals t = run_suite<Vrac_kernel_tiny>({2, 8, 30, 1024, 2, 2000});
  EXPECT_GT(t.misses, t.events / 10);
  EXPECT_GT(t.spills, 0u);
  EXPECT_GT(t.object_loads, t.sync_commands / 4) << "two entries: lock clocks are reloaded constantly";
}

TEST(KernelDifferential, MoreThreadsThanSlots) {
  const Totals t = run_suite<Vrac_kernel_default>({9, 14, 30, 2048, 12, 3000});
  EXPECT_GT(t.forced, 0u);
}

}  // namespace
}  // namespace raceaccel::kernel_test
