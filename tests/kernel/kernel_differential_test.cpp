// Kernel-level differential test: random traces through the offload engine
// (host/offload/) on the Verilator device, against the golden DJIT+. Small
// batches (many launches, state carried from one to the next), a random bus
// seed, latency and back-pressure per trace, and the configurations that
// stress the kernel's own logic:
//  - the built-in model (8 slots, 32-bit clocks, 256 x 4);
//  - both of the above at memory latencies up to 200 cycles (the
//    miss-ahead prefetcher's reads in flight, dropped by write-backs);
//  - a 2 x 2 cache with a 4-bucket table: most fills and write-backs go to
//    the table, most write-backs conflict and spill to the host;
//  - more threads than slots (forced escalations);
//  - the 2 x 2 cache with a 2-entry read-VC pool on read-mostly traces:
//    read clocks are carried, spilled to the host and imported with LASTWRITE
//    lines all the time (a large bucket table: see "Bucket spills and the
//    read-VC pool" in docs/kernel-interface.md).
//  - the same with one command per launch and small bucket tables: pool
//    lines are evicted and spilled from full buckets, arriving LASTWRITE;
//  - several read clocks per line (the 2 x 2 cache with one pool set of 2
//    ways, and with two sets of 4 ways): field-read and spill-round traces
//    (tests/driver/read_clock_traces.hpp), also with more threads than
//    slots, against DJIT+ and against the software model of the same shape
//    (the same escalations by cause, read-clock spills and re-imports).
// Lock acquire/release of threads with a slot run on the kernel's
// sync-object store (16 entries in the built-in model, 2 in the tiny one,
// where lock clocks are reloaded constantly).
// Every race must agree: (byte, first racing event, kind), and the whole
// record where the earlier access is a write. The memory model's protocol
// checks and the RTL assertions are live: a violation fails the launch.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>
#include <tuple>

#include "../common/race_keys.hpp"
#include "../driver/read_clock_traces.hpp"
#include "../driver/read_mostly_trace.hpp"
#include "Vrac_kernel_default.h"
#include "Vrac_kernel_tiny.h"
#include "Vrac_kernel_tiny_pool.h"
#include "Vrac_kernel_tiny_ways4.h"
#include "detect/djit.hpp"
#include "driver/software/software_device.hpp"
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
  uint32_t shared_weight = 15;                 // the generator's read-shared data (its default)
  bool read_mostly = false;                    // tests/driver/read_mostly_trace.hpp instead of the generator
  unsigned min_latency = 1, max_latency = 24;  // the bus latency's upper bound is drawn in this range
};

struct Totals {
  uint64_t events = 0, races = 0, escalations = 0, spills = 0, forced = 0, batches = 0, misses = 0, cycles = 0,
           busy_cycles = 0, commands = 0, sync_commands = 0, object_loads = 0, read_clock_spills = 0,
           read_clock_imports = 0, lastwrite_imports = 0;
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
    g.atomic_mixing = i % 2 == 1;  // atomic and plain accesses on the same variables: forced to the host
    g.shared_weight = s.shared_weight;

    driver::DeviceOptions d;
    d.backend = "verilator";
    d.seed = seed * 31 + 7;
    d.max_latency = static_cast<unsigned>(pick(s.min_latency, s.max_latency));
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
    test::ReadMostlyTrace read_mostly(seed, g.threads, 48, g.events, 20);
    Event e;
    uint64_t index = 0;
    while (s.read_mostly ? read_mostly.next(e) : generator.next(e)) {
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
    t.read_clock_spills += st.read_clock_spills;
    t.read_clock_imports += st.read_clock_imports;
    t.lastwrite_imports += st.lastwrite_imports;
  }
  std::printf(
      "  %llu events, %llu races, %llu launches, %llu command words, %llu escalations (%llu spills, %llu "
      "forced), %llu misses, %llu acquire/release, %llu load-objects, %.2f busy cycles per event; read-VC pool: "
      "%llu clocks carried, %llu spilled, %llu LASTWRITE imports\n",
      static_cast<unsigned long long>(t.events), static_cast<unsigned long long>(t.races),
      static_cast<unsigned long long>(t.batches), static_cast<unsigned long long>(t.commands),
      static_cast<unsigned long long>(t.escalations), static_cast<unsigned long long>(t.spills),
      static_cast<unsigned long long>(t.forced), static_cast<unsigned long long>(t.misses),
      static_cast<unsigned long long>(t.sync_commands), static_cast<unsigned long long>(t.object_loads),
      static_cast<double>(t.busy_cycles) / static_cast<double>(std::max<uint64_t>(t.events, 1)),
      static_cast<unsigned long long>(t.read_clock_imports), static_cast<unsigned long long>(t.read_clock_spills),
      static_cast<unsigned long long>(t.lastwrite_imports));
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

// The 2-entry pool (one set of 2 ways) on the 2 x 2 cache, read-mostly
// traces: pool lines are evicted to the bucket table and filled back,
// clocks are spilled and joined into LASTWRITE lines. The table's words
// fall in distinct buckets, so no pool line is spilled from a full bucket
// (the next test makes that happen). (With one clock per line, half-word
// reads of shared words escalated with the line's clock; with two they
// split the clock on chip, so escalations that carry a clock are left to
// the byte-for-byte tests of kernel_sync_ops_test.cpp.)
TEST(KernelDifferential, TwoEntryPoolOnTinyCacheReadMostly) {
  const Totals t = run_suite<Vrac_kernel_tiny_pool>({2, 8, 30, 1024, 16, 4000, 15, true});
  EXPECT_GT(t.misses, t.events / 10);
  EXPECT_GT(t.read_clock_spills, 0u);
  EXPECT_GT(t.lastwrite_imports, 0u);
}

// A line whose read clock is in the pool spills it to the host (reason 5)
// when it is evicted, so a pool line spilled from a full bucket arrives
// LASTWRITE and is imported with the kept clock (docs/kernel-interface.md,
// "Bucket spills and the read-VC pool"). Shared-heavy generator traces on a
// 4-bucket table alternate with read-mostly ones on 16–128 buckets, one
// command per launch (bucket conflicts at every miss): every trace must
// match DJIT+ exactly, and the path must be taken (3 of 40 traces here).
TEST(KernelDifferential, PoolLineSpilledFromAFullBucketMatchesDjit) {
  uint64_t shared_spill_imports = 0, read_clock_spills = 0;
  for (uint64_t seed = 4000; seed < 4040; ++seed) {
    const bool read_mostly = seed % 2 == 1;
    GeneratorOptions g;
    g.seed = seed;
    g.threads = 6;
    g.events = 3000;
    g.shared_weight = 70;
    driver::DeviceOptions d;
    d.backend = "verilator";
    d.seed = seed;
    driver::VerilatorDevice<Vrac_kernel_tiny_pool> device(d, "pool_bucket_spill_" + std::to_string(seed));
    offload::OffloadOptions oo;
    oo.batch_words = 1;
    oo.bucket_bits = read_mostly ? 4 + static_cast<unsigned>(seed % 4) : 2;
    offload::OffloadChecker checker(device, oo);
    DjitDetector golden;
    TraceGenerator generator(g);
    test::ReadMostlyTrace words(seed, 6, 48, g.events, 20);
    Event e;
    uint64_t index = 0;
    while (read_mostly ? words.next(e) : generator.next(e)) {
      golden.process(e, index);
      checker.process(e, index);
      ++index;
    }
    checker.finish();
    EXPECT_EQ(keys(golden.races()), keys(checker.races())) << "seed " << seed;
    shared_spill_imports += checker.stats().lastwrite_spill_imports;
    read_clock_spills += checker.stats().read_clock_spills;
  }
  EXPECT_GT(shared_spill_imports, 0u) << "no line with shared bytes came from a bucket spill";
  std::printf("  %llu lines with shared bytes imported from bucket spills, %llu read-clock spills\n",
              static_cast<unsigned long long>(shared_spill_imports),
              static_cast<unsigned long long>(read_clock_spills));
}

// Several read clocks per line on the RTL (cap_read_vc_ways > 1; docs/
// kernel-interface.md, "Several read clocks per line" and "Partial read
// clocks"): words read field by field (lines hold several clocks, clocks
// split, ways are displaced, evicted lines spill every clock, escalations
// carry one and spill the others, re-import sends op 7 + op 8) and spill
// rounds (partial clocks, reason 6), with up to 12 threads on the 8 slots,
// random bus timing and batches of 1, 16 and 256 words. Every trace must
// give DJIT+'s races, and the software model of the same shape the same
// escalations by cause and the same device counters.
struct WaysTotals {
  uint64_t traces = 0, races = 0, accesses = 0, on_chip = 0, clock_spills = 0, partial_spills = 0, reimports = 0,
           more_clocks = 0, forced = 0;
};
template <typename Model>
void several_read_clocks(unsigned read_vcs, unsigned ways, driver::CacheShape cache, uint64_t seed0, int traces,
                         WaysTotals& t) {
  for (int i = 0; i < traces; ++i) {
    const uint64_t seed = seed0 + static_cast<uint64_t>(i);
    std::mt19937_64 rng(seed);
    const auto threads = static_cast<uint32_t>(i % 3 == 2 ? 10 + seed % 3 : 3 + seed % 6);
    std::vector<Event> events;
    Event e;
    if (i % 3 == 1) {
      test::SpillRoundsTrace trace(seed, std::max(threads, 4u), 60);
      while (trace.next(e)) events.push_back(e);
    } else {
      test::FieldReadTrace trace(seed, threads, 4 + seed % 28, 900);
      while (trace.next(e)) events.push_back(e);
    }
    offload::OffloadOptions oo;
    oo.batch_words = std::array<size_t, 3>{1, 16, 256}[i % 3 == 1 ? (i / 3) % 3 : i % 3];
    oo.bucket_bits = 2 + static_cast<unsigned>(seed % 3);

    driver::DeviceOptions d;
    d.backend = "verilator";
    d.seed = seed * 31 + 7;
    d.max_latency = static_cast<unsigned>(1 + rng() % 16);
    d.stall_percent = static_cast<unsigned>(rng() % 40);
    d.idle_percent = static_cast<unsigned>(rng() % 20);
    driver::VerilatorDevice<Model> device(d, "several_read_clocks_" + std::to_string(seed));
    offload::OffloadChecker checker(device, oo);
    driver::DeviceOptions s;
    s.backend = "software";
    s.software_slots = 8;
    s.software_clock_bits = 32;
    s.software_objects = 2;
    s.software_read_vcs = read_vcs;
    s.software_read_vc_ways = ways;
    const auto model = driver::make_software_device(s, cache);
    offload::OffloadChecker on_model(*model, oo);
    DjitDetector golden;
    for (uint64_t index = 0; index < events.size(); ++index) {
      golden.process(events[index], index);
      checker.process(events[index], index);
      on_model.process(events[index], index);
    }
    checker.finish();
    on_model.finish();
    const std::string what = std::to_string(ways) + " ways, trace seed " + std::to_string(seed) + ", " +
                             std::to_string(threads) + " threads, batches of " + std::to_string(oo.batch_words);
    EXPECT_EQ(keys(golden.races()), keys(checker.races())) << what;
    for (const std::string& v : device.sim().violations()) ADD_FAILURE() << what << ": " << v;
    const offload::OffloadStats v = checker.stats(), m = on_model.stats();
    for (size_t c = 0; c < offload::kEscalationCauses; ++c) {
      EXPECT_EQ(v.causes[c], m.causes[c])
          << what << ": escalations by " << offload::escalation_cause_name(static_cast<offload::EscalationCause>(c));
    }
    EXPECT_EQ(v.read_clock_spills, m.read_clock_spills) << what;
    EXPECT_EQ(v.partial_read_clock_spills, m.partial_read_clock_spills) << what;
    EXPECT_EQ(v.reimports, m.reimports) << what;
    EXPECT_EQ(v.reimported_more_clocks, m.reimported_more_clocks) << what;
    EXPECT_EQ(v.device.commands, m.device.commands) << what;
    EXPECT_EQ(v.device.misses, m.device.misses) << what;
    EXPECT_EQ(v.device.writebacks, m.device.writebacks) << what;
    EXPECT_EQ(v.device.escalations, m.device.escalations) << what;
    EXPECT_EQ(v.device.spills, m.device.spills) << what;
    EXPECT_EQ(v.device.races, m.device.races) << what;
    if (::testing::Test::HasFailure()) return;
    ++t.traces;
    t.races += golden.races().size();
    t.accesses += v.access_commands;
    t.on_chip += v.on_chip();
    t.clock_spills += v.read_clock_spills;
    t.partial_spills += v.partial_read_clock_spills;
    t.reimports += v.reimports;
    t.more_clocks += v.reimported_more_clocks;
    t.forced += v.forced;
  }
}

void print(const char* name, const WaysTotals& t) {
  std::printf(
      "  %s: %llu traces, %llu races, %llu of %llu accesses on chip, %llu read-clock spills (%llu partial), %llu "
      "lines re-imported (%llu further clocks by op 8), %llu forced\n",
      name, static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
      static_cast<unsigned long long>(t.on_chip), static_cast<unsigned long long>(t.accesses),
      static_cast<unsigned long long>(t.clock_spills), static_cast<unsigned long long>(t.partial_spills),
      static_cast<unsigned long long>(t.reimports), static_cast<unsigned long long>(t.more_clocks),
      static_cast<unsigned long long>(t.forced));
}

TEST(KernelDifferential, TwoReadClockWaysMatchDjitAndTheModel) {
  WaysTotals t;
  several_read_clocks<Vrac_kernel_tiny_pool>(2, 2, {2, 2, 1}, 6000, 18, t);
  print("one pool set of 2 ways", t);
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.partial_spills, 0u) << "partial clocks must be made and spilled";
  EXPECT_GT(t.more_clocks, 0u) << "lines must go back with several clocks (op 8)";
  EXPECT_GT(t.forced, 0u) << "more threads than slots";
}

TEST(KernelDifferential, FourReadClockWaysMatchDjitAndTheModel) {
  WaysTotals t;
  several_read_clocks<Vrac_kernel_tiny_ways4>(8, 4, {2, 2, 2}, 7000, 18, t);
  print("two pool sets of 4 ways", t);
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.partial_spills, 0u);
  EXPECT_GT(t.more_clocks, 0u);
}

// Memory latency up to 200 cycles (a card's DDR under load): the miss-ahead
// prefetcher has many bucket reads in flight while the engine works, and on
// the 2 x 2 cache with 4 buckets nearly every write-back lands in a bucket
// an entry has read or is reading (the entry must be dropped: with the
// invalidation removed, RAC_MUTANT_NO_PREFETCH_INVALIDATE, this suite fails).
TEST(KernelDifferential, HighLatencyDefaultConfiguration) {
  Suite s{2, 8, 10, 2048, 12, 5000};
  s.min_latency = 100;
  s.max_latency = 200;
  const Totals t = run_suite<Vrac_kernel_default>(s);
  EXPECT_GE(t.events, 15'000u);
}

TEST(KernelDifferential, HighLatencyTinyCacheAndBucketTableSpill) {
  Suite s{2, 8, 12, 1024, 2, 6000};
  s.min_latency = 100;
  s.max_latency = 200;
  const Totals t = run_suite<Vrac_kernel_tiny>(s);
  EXPECT_GT(t.misses, t.events / 10);
  EXPECT_GT(t.spills, 0u);
}

TEST(KernelDifferential, MoreThreadsThanSlots) {
  const Totals t = run_suite<Vrac_kernel_default>({9, 14, 30, 2048, 12, 3000});
  EXPECT_GT(t.forced, 0u);
}

}  // namespace
}  // namespace raceaccel::kernel_test
