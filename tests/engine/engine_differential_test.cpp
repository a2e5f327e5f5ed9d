// Engine-level differential test: the Verilated check engine, driven through
// EngineChecker with random memory latency and back-pressure on every output,
// must report exactly what the golden DJIT+ detector reports on random traces
// — the same (byte, first racing event, kind) and, where the earlier access is
// a write, the same earlier thread and clock — in every configuration that
// changes behaviour: default, a tiny cache, a direct-mapped cache, more
// threads than hardware slots, and clocks narrow enough to overflow. Half
// the traces mix atomic and plain accesses on the same variables: the
// engine checks the access part of atomics against the plain history (ops
// 9-10, cmd_atomic_i), the host checks plain accesses against its atomic
// history before sending them and decides the concurrent ones (the
// protocol core, as on the device path), so plain-vs-atomic races must come
// out exactly too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <tuple>

#include "Vengine_default.h"
#include "Vengine_directmap.h"
#include "Vengine_fewslots.h"
#include "Vengine_narrow.h"
#include "Vengine_tinycache.h"
#include "detect/djit.hpp"
#include "engine_checker.hpp"
#include "engine_models.hpp"
#include "gen/generator.hpp"

namespace raceaccel::sim {
namespace {

std::string describe(const std::vector<Key>& v) {
  if (v.empty()) return "-";
  const auto& [addr, event, kind, tid, clock] = v.front();
  return "byte " + std::to_string(addr) + " event " + std::to_string(event) + " kind " + std::to_string(kind) +
         " prev T" + std::to_string(tid) + "@" + std::to_string(clock);
}

struct Totals {
  uint64_t events = 0, races = 0, escalations = 0, misses = 0, cycles = 0, sync_ops = 0, object_loads = 0;
  uint64_t read_vc_spills = 0;
  uint64_t atomic_commands = 0, atomic_races = 0;  // golden races with an atomic access on either side
  std::array<uint64_t, 8> by_reason{};
  bool fell_back = false;
};

template <typename Model>
Totals run_traces(const EngineConfig& base, uint32_t min_threads, uint32_t max_threads, int traces,
                  uint64_t events_per_trace, uint64_t seed0) {
  Totals totals;
  for (int i = 0; i < traces; ++i) {
    GeneratorOptions g;
    g.seed = seed0 + static_cast<uint64_t>(i);
    g.threads = min_threads + static_cast<uint32_t>(g.seed % (max_threads - min_threads + 1));
    g.events = events_per_trace;
    g.racy_weight = 2 + static_cast<uint32_t>(g.seed % 6);
    g.mistake_percent = static_cast<uint32_t>(g.seed % 4);
    g.std_only = i % 5 == 4;
    // Every other pair of traces mixes atomic and plain accesses (with and
    // without lock ops on the sync-object store, below).
    g.atomic_mixing = i % 4 >= 2;
    EngineConfig cfg = base;
    // Every other trace sends all synchronization as SetRow rows; the rest
    // run lock acquire/release on the engine's sync-object store.
    if (i % 2 == 1) cfg.objects = 0;
    cfg.seed = g.seed * 31 + 7;
    cfg.stall_percent = static_cast<unsigned>(g.seed % 40);
    cfg.max_mem_latency = 1 + static_cast<unsigned>(g.seed % 8);
    cfg.trace_tag =
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" + std::to_string(g.seed);

    TraceGenerator generator(g);
    DjitDetector golden;
    EngineChecker<Model> engine(cfg);
    Event e;
    uint64_t index = 0;
    while (generator.next(e)) {
      golden.process(e, index);
      engine.process(e, index);
      ++index;
    }
    engine.finish();
    const auto expected = keys(golden.races());
    const auto actual = keys(engine.races());
    std::vector<Key> missing, extra;
    std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(), std::back_inserter(missing));
    std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(), std::back_inserter(extra));
    EXPECT_TRUE(missing.empty() && extra.empty())
        << "trace seed " << g.seed << ", " << g.threads << " threads, " << index << " events: " << missing.size()
        << " races missed, first " << describe(missing) << "; " << extra.size() << " extra, first " << describe(extra);
    const EngineStats s = engine.stats();
    totals.events += index;
    totals.races += golden.races().size();
    totals.escalations += s.escalations;
    totals.misses += s.misses;
    totals.cycles += s.cycles;
    totals.sync_ops += s.sync_ops;
    totals.object_loads += s.object_loads;
    totals.read_vc_spills += s.read_vc_spills;
    totals.atomic_commands += s.protocol.atomic_commands;
    for (const Race& r : golden.races()) totals.atomic_races += r.atomic || r.prev_atomic ? 1 : 0;
    for (size_t r = 0; r < s.records_by_reason.size(); ++r) totals.by_reason[r] += s.records_by_reason[r];
    totals.fell_back = totals.fell_back || engine.fell_back();
  }
  std::printf(
      "  %llu events, %llu golden races, %llu escalations, %llu misses, %llu on-chip sync ops, %llu object "
      "loads, %llu read-VC spills, %llu atomic commands, %llu races with atomics, %.2f cycles/event%s\n",
      static_cast<unsigned long long>(totals.events), static_cast<unsigned long long>(totals.races),
      static_cast<unsigned long long>(totals.escalations), static_cast<unsigned long long>(totals.misses),
      static_cast<unsigned long long>(totals.sync_ops), static_cast<unsigned long long>(totals.object_loads),
      static_cast<unsigned long long>(totals.read_vc_spills), static_cast<unsigned long long>(totals.atomic_commands),
      static_cast<unsigned long long>(totals.atomic_races),
      static_cast<double>(totals.cycles) / static_cast<double>(std::max<uint64_t>(totals.events, 1)),
      totals.fell_back ? ", clock overflow fallback taken" : "");
  std::printf(
      "  escalation records: %llu in-software, %llu read-share, %llu forced, %llu reclaim, %llu read-VC spill\n",
      static_cast<unsigned long long>(totals.by_reason[0]), static_cast<unsigned long long>(totals.by_reason[1]),
      static_cast<unsigned long long>(totals.by_reason[2]), static_cast<unsigned long long>(totals.by_reason[3]),
      static_cast<unsigned long long>(totals.by_reason[5]));
  EXPECT_GT(totals.races, 0u) << "the traces must contain races for agreement to mean something";
  if (traces >= 3) {
    EXPECT_GT(totals.atomic_races, 0u) << "the mixed traces must race plain against atomic accesses";
  }
  return totals;
}

TEST(EngineDifferential, DefaultConfiguration) {
  const EngineConfig c = default_model();
  const Totals t = run_traces<Vengine_default>(c, 2, 8, 16, 6000, 1000);
  EXPECT_GE(t.events, 90'000u);
  EXPECT_GT(t.sync_ops, 1000u);
}

TEST(EngineDifferential, TinyCacheForcesEvictions) {
  const EngineConfig c = tinycache_model();
  const Totals t = run_traces<Vengine_tinycache>(c, 2, 8, 10, 5000, 2000);
  EXPECT_GT(t.misses, t.events / 10);
  EXPECT_GT(t.object_loads, t.sync_ops / 10) << "two sync-object entries must be reloaded often";
  EXPECT_GT(t.read_vc_spills, 0u) << "two read-VC pool entries must spill clocks (LASTWRITE lines)";
}

TEST(EngineDifferential, DirectMappedCache) {
  const EngineConfig c = directmap_model();
  run_traces<Vengine_directmap>(c, 2, 8, 6, 5000, 3000);
}

TEST(EngineDifferential, MoreThreadsThanSlots) {
  const EngineConfig c = fewslots_model();
  const Totals t = run_traces<Vengine_fewslots>(c, 6, 12, 10, 5000, 4000);
  EXPECT_GT(t.escalations, 0u);
}

TEST(EngineDifferential, NarrowClocksOverflowToSoftware) {
  const EngineConfig c = narrow_model();
  const Totals t = run_traces<Vengine_narrow>(c, 2, 8, 8, 4000, 5000);
  EXPECT_TRUE(t.fell_back);
}

// The small handwritten cases: each one path of the engine.
// Runs a handwritten trace on one model, without back-pressure, and on DJIT+.
using DirectedRun = GoldenRun;
template <typename Model>
DirectedRun run_events(EngineConfig c, const std::vector<Event>& events) {
  c.stall_percent = 0;
  return run_against_djit<Model>(c, events);
}

// Concurrent reads of a word, then a partial re-read and a write of the
// other half: READ SHARE, READ SHARED (same epoch), WRITE SHARED racing with
// T0's read of bytes 4..7.
std::vector<Event> read_share_events() {
  return {
      Event::write(0, 0x100, 8), Event::sync(Op::Fork, 0, 1),
      Event::read(1, 0x100, 8),  Event::read(0, 0x100, 8),  // concurrent with T1's read: READ SHARE
      Event::read(1, 0x100, 4),                             // READ SHARED, same epoch
      Event::write(1, 0x104, 4),                            // races with T0's read of bytes 4..7
  };
}

// With a read-VC pool the shared reads stay on chip: nothing is escalated.
TEST(EngineDirected, ReadShareTakesAPoolClockOnChip) {
  const DirectedRun run = run_events<Vengine_default>(default_model(), read_share_events());
  EXPECT_EQ(run.golden, run.engine);
  EXPECT_EQ(run.races, 4u);
  EXPECT_EQ(run.stats.escalations, 0u);
  EXPECT_EQ(run.stats.read_vc_spills, 0u);
}

// Without one (ReadVcs = 0) the line goes to software at READ SHARE and
// every later access to it is checked there.
TEST(EngineDirected, ReadShareWithoutAPoolIsHandedToSoftware) {
  const DirectedRun run = run_events<Vengine_directmap>(directmap_model(), read_share_events());
  EXPECT_EQ(run.golden, run.engine);
  EXPECT_EQ(run.races, 4u);
  EXPECT_GE(run.stats.escalations, 3u);
}

// Two pool entries (tinycache): granules of equal parity share an entry, so
// a second shared line spills the first one's read clock to the host and
// the first line becomes LASTWRITE. Its reads after that are decided on
// chip while they are ordered (the latest kept in R); a write of its shared
// bytes, or a read concurrent with the latest, goes to the host, which joins
// the spilled clock with R and must find the races DJIT+ finds.
TEST(EngineDirected, SpilledReadClockMakesTheLineLastWrite) {
  // 0x100 and 0x118 (granules 0x20, 0x23) share entry 1; 0x140 and 0x158
  // (granules 0x28, 0x2b) share entry 0.
  std::vector<Event> events = {Event::write(0, 0x100, 8), Event::write(0, 0x118, 8), Event::write(0, 0x140, 8),
                               Event::write(0, 0x158, 8), Event::sync(Op::Fork, 0, 1)};
  for (uint64_t first : {0x100u, 0x140u}) {
    const uint64_t second = first + 0x18;
    events.push_back(Event::read(1, first, 8));
    events.push_back(Event::read(0, first, 8));  // READ SHARE: a pool clock
    events.push_back(Event::read(1, second, 8));
    events.push_back(Event::read(0, second, 8));  // takes the entry: the first line's clock spills
    events.push_back(Event::read(1, first, 8));   // LASTWRITE: ordered after nothing on chip, kept in R
    events.push_back(Event::read(1, first, 4));   // same epoch
  }
  events.push_back(Event::write(1, 0x100, 4));  // LASTWRITE write: the host finds T0's read (4 races)
  events.push_back(Event::read(0, 0x144, 4));   // concurrent with T1's read since: the host joins them
  events.push_back(Event::write(1, 0x140, 8));  // in software now: races with T0's reads (8 races)
  events.push_back(Event::write(1, 0x11c, 4));  // the second line, on chip: races with T0's read (4 races)
  const DirectedRun run = run_events<Vengine_tinycache>(tinycache_model(), events);
  EXPECT_EQ(run.golden, run.engine);
  EXPECT_EQ(run.races, 16u);
  EXPECT_EQ(run.stats.read_vc_spills, 2u);
  EXPECT_GE(run.stats.escalations, 2u);
}
// What a LASTWRITE line keeps in R — the latest read since its clock left —
// is the only record of that read: T3 reads after the spill, T0's
// concurrent read must not replace it, and T0's write after joining the
// spilled readers T1 and T2 (but not T3) must find the race with T3.
TEST(EngineDirected, LastWriteKeepsTheReadSinceTheSpill) {
  // 0x180 and 0x198 (granules 0x30, 0x33) share pool entry 0.
  std::vector<Event> events = {Event::write(0, 0x180, 8),   Event::write(0, 0x198, 8),   Event::sync(Op::Fork, 0, 1),
                               Event::sync(Op::Fork, 0, 2), Event::sync(Op::Fork, 0, 3), Event::read(1, 0x180, 8),
                               Event::read(2, 0x180, 8),    Event::read(1, 0x198, 8),    Event::read(2, 0x198, 8),
                               Event::read(3, 0x180, 8),    Event::read(0, 0x180, 8),    Event::sync(Op::Join, 0, 1),
                               Event::sync(Op::Join, 0, 2), Event::write(0, 0x180, 8)};
  const DirectedRun run = run_events<Vengine_tinycache>(tinycache_model(), events);
  EXPECT_EQ(run.golden, run.engine);
  EXPECT_EQ(run.races, 8u);
  EXPECT_EQ(run.stats.read_vc_spills, 1u);
}

TEST(EngineDirected, BackToBackSameLineUsesTheBypass) {
  EngineConfig c = default_model();
  c.objects = 0;
  c.stall_percent = 0;
  EngineChecker<Vengine_default> engine(c);
  DjitDetector golden;
  std::vector<Event> events = {Event::sync(Op::Fork, 0, 1)};
  for (int i = 0; i < 50; ++i) {
    events.push_back(Event::write(0, 0x200 + (i % 8), 1));
    events.push_back(Event::read(0, 0x200 + (i % 8), 1));
  }
  events.push_back(Event::read(1, 0x203, 1));  // races with T0's writes
  for (uint64_t i = 0; i < events.size(); ++i) {
    golden.process(events[i], i);
    engine.process(events[i], i);
  }
  engine.finish();
  EXPECT_EQ(keys(golden.races()), keys(engine.races()));
  ASSERT_EQ(engine.races().size(), 1u);
  EXPECT_EQ(engine.races()[0].kind, RaceKind::WriteRead);
}

// Lock handoffs on the sync-object store: release then acquire back to back
// (the second command reads the entry the first is writing: bypass), a
// shared clock joined on write-lock acquire, and two entries for four lock
// clocks so entries are evicted and reloaded. One pair of writes is left
// unordered.
TEST(EngineDirected, LockHandoffsOnTheSyncObjectStore) {
  EngineConfig c = tinycache_model();
  c.stall_percent = 0;
  EngineChecker<Vengine_tinycache> engine(c);
  DjitDetector golden;
  std::vector<Event> events = {Event::sync(Op::Fork, 0, 1), Event::sync(Op::Fork, 0, 2)};
  for (int round = 0; round < 30; ++round) {
    const ThreadId a = round % 3, b = (round + 1) % 3;
    const uint64_t lock = 0x1000 + 8 * (round % 3);
    events.push_back(Event::sync(Op::Acquire, a, lock));
    events.push_back(Event::write(a, 0x400 + 8 * (round % 3), 8));
    events.push_back(Event::sync(Op::Release, a, lock));
    events.push_back(Event::sync(Op::Acquire, b, lock));  // handoff: no race
    events.push_back(Event::read(b, 0x400 + 8 * (round % 3), 8));
    events.push_back(Event::sync(Op::Release, b, lock));
    events.push_back(Event::sync(Op::AcquireShared, a, 0x2000));  // rwlock: readers, then a writer
    events.push_back(Event::read(a, 0x500, 4));
    events.push_back(Event::sync(Op::ReleaseShared, a, 0x2000));
    events.push_back(Event::sync(Op::Acquire, b, 0x2000));
    events.push_back(Event::write(b, 0x500, 4));
    events.push_back(Event::sync(Op::Release, b, 0x2000));
  }
  events.push_back(Event::write(0, 0x600, 4));  // after T0's last release: unordered with T2's write
  events.push_back(Event::write(2, 0x600, 4));
  for (uint64_t i = 0; i < events.size(); ++i) {
    golden.process(events[i], i);
    engine.process(events[i], i);
  }
  engine.finish();
  EXPECT_EQ(keys(golden.races()), keys(engine.races()));
  EXPECT_EQ(engine.races().size(), 4u);  // one per byte of the unordered 4-byte writes
  const EngineStats s = engine.stats();
  EXPECT_GT(s.sync_ops, 100u);
  EXPECT_GT(s.object_loads, 10u);
}

}  // namespace
}  // namespace raceaccel::sim

namespace raceaccel::sim {
namespace {

// Long stretches of events that send the engine no command (spin loops on
// an atomic, a thread without a slot) must not lose track of what is still
// in flight: the race of event 2 is reported after 9,000 such events.
TEST(EngineDirected, RecordsSurviveLongStretchesWithoutCommands) {
  EngineConfig c = fewslots_model();
  c.objects = 0;
  c.stall_percent = 30;
  EngineChecker<Vengine_fewslots> engine(c);
  DjitDetector golden;
  std::vector<Event> events = {Event::sync(Op::Fork, 0, 1), Event::write(0, 0x100, 8), Event::write(1, 0x100, 8)};
  for (ThreadId t = 2; t < 7; ++t) events.push_back(Event::sync(Op::Fork, 0, t));
  events.push_back(Event::write(6, 0x200, 8));  // thread 6 has no slot: a forced escalation
  for (int i = 0; i < 9000; ++i) {
    events.push_back(Event::atomic(Op::AtomicLoad, 6, 0x900, 4, MemoryOrder::Relaxed));
  }
  events.push_back(Event::read(5, 0x200, 8));  // slotless too; races with thread 6's write
  events.push_back(Event::read(0, 0x300, 8));
  for (uint64_t i = 0; i < events.size(); ++i) {
    golden.process(events[i], i);
    engine.process(events[i], i);
  }
  engine.finish();
  EXPECT_EQ(keys(golden.races()), keys(engine.races()));
  EXPECT_EQ(engine.races().size(), 16u);
}

// Atomic and plain accesses of the same bytes: the engine checks the atomic
// ones against the plain history; the host keeps their history and decides
// a plain access concurrent with one of them. A relaxed atomic
// store races with an earlier plain write and a later plain read; two
// atomic accesses never race; a plain read of a line on chip that an
// atomic read-modify-write later touches is handed over and found by it.
TEST(EngineDirected, AtomicAndPlainAccessesOfTheSameBytes) {
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::write(0, 0x100, 4),                                          // plain, on chip
      Event::atomic(Op::AtomicStore, 1, 0x100, 4, MemoryOrder::Relaxed),  // races with it (4 bytes)
      Event::atomic(Op::AtomicLoad, 0, 0x100, 4, MemoryOrder::Relaxed),   // atomic vs atomic: no race
      Event::atomic(Op::AtomicStore, 1, 0x108, 4, MemoryOrder::Relaxed),
      Event::read(0, 0x10a, 2),                                         // plain read vs T1's atomic store (2)
      Event::read(1, 0x140, 8),                                         // plain read, on chip
      Event::atomic(Op::AtomicRmw, 0, 0x144, 4, MemoryOrder::Relaxed),  // writes: races with T1's read (4)
  };
  for (const EngineConfig& c : {default_model(), directmap_model()}) {
    const DirectedRun run =
        c.read_vcs > 0 ? run_events<Vengine_default>(c, events) : run_events<Vengine_directmap>(c, events);
    EXPECT_EQ(run.golden, run.engine) << "golden " << describe(run.golden) << ", engine " << describe(run.engine);
    EXPECT_EQ(run.races, 10u);
    EXPECT_EQ(run.stats.protocol.atomic_commands, 4u);
  }
}

// A working set that fits misses once per line, then always hits.
TEST(EngineDirected, WorkingSetThatFitsMissesOnlyOnce) {
  EngineConfig c = default_model();
  c.objects = 0;
  c.stall_percent = 0;
  EngineChecker<Vengine_default> engine(c);
  uint64_t index = 0;
  for (int round = 0; round < 10; ++round) {
    for (uint64_t g = 0; g < 128; ++g) {
      // Two regions 4 KiB apart, as per-thread data at power-of-two strides.
      engine.process(Event::write(0, 0x10000 + (g % 64) * 8 + (g / 64) * 0x1000, 8), index++);
    }
  }
  engine.finish();
  EXPECT_EQ(engine.stats().misses, 128u);
}

// A thread-stack-sized free (8 MiB) sends free commands only for the pages
// accesses touched, yet resets all their history: on chip (thread 1) and in
// software (thread 5 has no slot, so its write is handed to the host and
// reclaimed by the free). The same bytes race again after the free, with
// new accesses only.
TEST(EngineDirected, HugeFreeResetsOnlyTouchedPages) {
  const uint64_t stack = 0x7f0000000000, size = 8 << 20;
  std::vector<Event> events;
  for (ThreadId t = 1; t < 6; ++t) events.push_back(Event::sync(Op::Fork, 0, t));
  events.push_back(Event::write(1, stack + 0x1238, 8));
  events.push_back(Event::write(5, stack + 0x7ff008, 8));
  events.push_back(Event::range(Op::Free, 0, stack, size));
  events.push_back(Event::write(2, stack + 0x1238, 8));    // history gone: no race with thread 1
  events.push_back(Event::read(3, stack + 0x1238, 8));     // races with thread 2
  events.push_back(Event::read(2, stack + 0x7ff008, 8));   // no race with thread 5
  events.push_back(Event::write(1, stack + 0x7ff008, 8));  // races with thread 2's read
  const DirectedRun r = run_events<Vengine_fewslots>(fewslots_model(), events);
  EXPECT_EQ(r.golden, r.engine) << "first golden race: " << describe(r.golden) << ", engine: " << describe(r.engine);
  EXPECT_EQ(r.races, 16u);
  EXPECT_GE(r.stats.records_by_reason[3], 1u) << "the free reclaims thread 5's software-owned granule";
  // One free command per granule of the two touched pages, not 2^20.
  EXPECT_LT(r.stats.commands, 2 * 512 + 100u);
}

}  // namespace
}  // namespace raceaccel::sim
