// Randomized differential test: FastTrack must report exactly what the golden
// DJIT+ detector reports on every trace — the same (location, first racing
// event, kind) for every byte, and the same earlier write wherever the
// earlier access is a write (the last write is unique; for an earlier read
// the two detectors may name different, equally valid, concurrent readers).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>

#include "../common/race_keys.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "gen/generator.hpp"

namespace raceaccel {
namespace {

constexpr int kShards = 16;
constexpr int kTracesPerShard = 14;  // 224 traces per run

struct Outcome {
  uint64_t events = 0;
  size_t races = 0;
  size_t atomic_races = 0;   // an atomic access on one side
  uint64_t slot_reuses = 0;  // forks that took a joined thread's slot (FastTrack)
  uint32_t slots = 0;        // FastTrack's thread slots at the end
};

using test::race_keys;

GeneratorOptions options_for(uint64_t trace_seed) {
  std::mt19937_64 rng(trace_seed);
  auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  GeneratorOptions o;
  o.seed = trace_seed;
  // Mostly 2–64 threads; one trace in ten has 300+.
  o.threads = pick(0, 9) == 0 ? static_cast<uint32_t>(pick(300, 400)) : static_cast<uint32_t>(pick(2, 64));
  o.events = pick(4500, 8000) + o.threads * 8;
  o.local_weight = static_cast<uint32_t>(pick(0, 40));
  o.locked_weight = static_cast<uint32_t>(pick(0, 50));
  o.shared_weight = static_cast<uint32_t>(pick(0, 30));
  o.racy_weight = static_cast<uint32_t>(pick(0, 10));
  o.extras_weight = static_cast<uint32_t>(pick(5, 40));
  o.mistake_percent = static_cast<uint32_t>(pick(0, 5));
  o.locks = static_cast<uint32_t>(pick(1, 12));
  o.std_only = pick(0, 7) == 0;
  o.atomic_mixing = pick(0, 1) == 0;   // atomic and plain accesses to the same variables
  o.lock_lifecycle = pick(0, 2) == 0;  // locks destroyed or freed between uses
  return o;
}

// Interleaves a generated trace with large range events, as the runtime
// sends them for malloc/free, memset/memcpy and thread stacks: whole pages,
// several pages, and unaligned ranges within or across pages, over the
// generator's regions (host/gen/generator.cpp: each thread's private page at
// 0x1000'0000 + thread * 0x1000, the lock-protected, shared, racy and heap
// regions), by the thread of the event just generated. Mostly a thread's
// own page (ordered with its small accesses: no races), sometimes another
// region or its neighbour's page (races inside the ranges).
class RangeMixer {
 public:
  RangeMixer(const GeneratorOptions& options, uint32_t one_in)
      : generator_(options), rng_(options.seed), one_in_(one_in) {}

  bool next(Event& e) {
    if (last_tid_ != kNone && pick(1, one_in_) == 1) {
      e = range_event(last_tid_);
      return true;
    }
    if (!generator_.next(e)) return false;
    last_tid_ = e.tid;
    return true;
  }
  uint64_t ranges() const { return ranges_; }

 private:
  static constexpr ThreadId kNone = ~ThreadId{0};
  static constexpr uint64_t kPage = 4096;

  Event range_event(ThreadId t) {
    ++ranges_;
    const uint64_t own_page = 0x1000'0000 + uint64_t{t} * kPage;
    const uint64_t roll = pick(0, 99);
    const uint64_t site = 900 + pick(0, 3);
    const Op access = pick(0, 2) == 0 ? Op::Read : Op::Write;
    if (roll < 45) return Event::range(access, t, own_page, kPage, site);
    if (roll < 55) return Event::range(pick(0, 1) == 0 ? Op::Free : Op::Alloc, t, own_page, kPage);
    if (roll < 65) return Event::range(access, t, own_page + pick(0, kPage - 1), pick(1, 2 * kPage), site);
    static constexpr uint64_t kRegions[] = {0x2000'0000, 0x3000'0000, 0x4000'0000, 0x8000'0000, 0x1000'0000};
    const uint64_t base = kRegions[pick(0, 4)];
    if (roll < 75) return Event::range(pick(0, 3) == 0 ? Op::Alloc : Op::Free, t, base + pick(0, 2) * kPage, kPage);
    if (roll < 88) return Event::range(access, t, base + pick(0, 2) * kPage, pick(1, 3) * kPage, site);
    return Event::range(access, t, base + pick(0, 3 * kPage), pick(1, 3 * kPage), site);
  }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }

  TraceGenerator generator_;
  std::mt19937_64 rng_;
  uint32_t one_in_;
  ThreadId last_tid_ = kNone;
  uint64_t ranges_ = 0;
};

// one_in = 0: the generated trace alone; otherwise one range event in about one_in events.
Outcome compare_on(const GeneratorOptions& options, uint32_t one_in = 0) {
  TraceGenerator generator(options);
  RangeMixer mixer(options, one_in);
  DjitDetector golden;
  FastTrackDetector fast;
  Event e;
  uint64_t index = 0;
  std::set<std::tuple<uint64_t, ThreadId, uint64_t>> atomic_writes;  // (byte, thread, site)
  while (one_in == 0 ? generator.next(e) : mixer.next(e)) {
    golden.process(e, index);
    fast.process(e, index);
    if (e.op == Op::AtomicStore || e.op == Op::AtomicRmw) {
      for (uint64_t b = 0; b < e.size; ++b) atomic_writes.emplace(e.addr + b, e.tid, e.site);
    }
    ++index;
  }
  const auto expected = race_keys(golden.races());
  const auto actual = race_keys(fast.races());
  EXPECT_EQ(expected, actual) << "seed " << options.seed << ", " << options.threads << " threads, " << index
                              << " events";
  // Where the earlier access is a write, both must name the same write.
  std::vector<Race> g = golden.races(), f = fast.races();
  auto by_key = [](const Race& a, const Race& b) { return std::tie(a.addr, a.event) < std::tie(b.addr, b.event); };
  std::sort(g.begin(), g.end(), by_key);
  std::sort(f.begin(), f.end(), by_key);
  if (g.size() == f.size()) {
    for (size_t i = 0; i < g.size(); ++i) {
      if (g[i].kind == RaceKind::ReadWrite) continue;
      if (options.churn && g[i].prev_atomic) {
        // Several atomic writes may race with one access, as several reads
        // may; both detectors name the one in the lowest slot, and slots
        // differ once FastTrack reuses them. FastTrack's must be an atomic
        // write of that byte by the thread it names.
        EXPECT_TRUE(f[i].prev_atomic) << "seed " << options.seed << " race " << i;
        EXPECT_TRUE(atomic_writes.contains({f[i].addr, f[i].prev_tid, f[i].prev_site}))
            << "seed " << options.seed << " race " << i << ": thread " << f[i].prev_tid << " site " << f[i].prev_site;
        Race same = f[i];
        same.prev_tid = g[i].prev_tid;
        same.prev_clock = g[i].prev_clock;
        same.prev_site = g[i].prev_site;
        EXPECT_EQ(g[i], same) << "seed " << options.seed << " race " << i;
        continue;
      }
      EXPECT_EQ(g[i], f[i]) << "seed " << options.seed << " race " << i << ": earlier access " << g[i].prev_tid << "@"
                            << g[i].prev_clock << " vs " << f[i].prev_tid << "@" << f[i].prev_clock;
    }
  }
  const auto atomic_races =
      static_cast<size_t>(std::count_if(g.begin(), g.end(), [](const Race& r) { return r.atomic || r.prev_atomic; }));
  return {index, expected.size(), atomic_races, fast.slot_reuses(), fast.thread_slots()};
}

class Differential : public ::testing::TestWithParam<int> {};

TEST_P(Differential, FastTrackAgreesWithDjitOnRandomTraces) {
  uint64_t events = 0;
  size_t racy_traces = 0, atomic_races = 0;
  for (int i = 0; i < kTracesPerShard; ++i) {
    const uint64_t seed = 0x5eed'0000 + static_cast<uint64_t>(GetParam()) * 1000 + i;
    const Outcome out = compare_on(options_for(seed));
    events += out.events;
    if (out.races > 0) ++racy_traces;
    atomic_races += out.atomic_races;
  }
  // Together the shards cover at least 1 M events and 200 traces.
  EXPECT_GE(events * kShards, 1'000'000u);
  // Agreement on race-free traces alone would mean little (race-free
  // verdicts are covered by DifferentialClean below).
  EXPECT_GT(racy_traces, 0u);
  // And the traces with atomic_mixing must exercise plain-vs-atomic races.
  EXPECT_GT(atomic_races, 0u);
  RecordProperty("events", static_cast<int>(events));
  RecordProperty("atomic_races", static_cast<int>(atomic_races));
}

INSTANTIATE_TEST_SUITE_P(Shards, Differential, ::testing::Range(0, kShards));

// The same with range events mixed in (FastTrack's uniform shadow pages,
// their materialization and their frees against DJIT+'s bytes).
class DifferentialRanges : public ::testing::TestWithParam<int> {};

TEST_P(DifferentialRanges, FastTrackAgreesWithDjitOnTracesWithRanges) {
  size_t racy_traces = 0;
  for (int i = 0; i < 12; ++i) {
    const uint64_t seed = 0x7a9e'0000 + static_cast<uint64_t>(GetParam()) * 1000 + i;
    GeneratorOptions o = options_for(seed);
    o.threads = std::min<uint32_t>(o.threads, 64);  // DJIT+ visits every byte of a range
    if (compare_on(o, 60 + static_cast<uint32_t>(seed % 140)).races > 0) ++racy_traces;
  }
  EXPECT_GT(racy_traces, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shards, DifferentialRanges, ::testing::Range(0, 8));

// Threads forked and joined all through the trace, by any running thread
// (GeneratorOptions::churn), and joined threads now and then acting again.
// FastTrack gives a joined thread's slot to a thread forked after the join
// (docs/detectors.md, "Slots of joined threads"); DJIT+ never reuses one.
// Both must report the same races, and name the same earlier write by its
// thread and that thread's own clock, also when the write was made by a
// slot's earlier occupant.
class DifferentialChurn : public ::testing::TestWithParam<int> {};

TEST_P(DifferentialChurn, FastTrackReusingJoinedThreadsSlotsAgreesWithDjit) {
  uint64_t reuses = 0, threads = 0, slots = 0;
  size_t racy_traces = 0;
  for (int i = 0; i < 10; ++i) {
    const uint64_t seed = 0xc4a7'0000 + static_cast<uint64_t>(GetParam()) * 1000 + i;
    GeneratorOptions o = options_for(seed);
    o.churn = true;
    o.threads = 40 + static_cast<uint32_t>(seed % 200);
    const Outcome out = compare_on(o, i % 3 == 0 ? 80 + static_cast<uint32_t>(seed % 100) : 0);
    reuses += out.slot_reuses;
    threads += o.threads;
    slots += out.slots;
    if (out.races > 0) ++racy_traces;
  }
  // Not vacuous: slots were reused, and far fewer were needed than threads.
  EXPECT_GT(reuses, 100u);
  EXPECT_LT(slots * 2, threads);
  EXPECT_GT(racy_traces, 0u);
  RecordProperty("slot_reuses", static_cast<int>(reuses));
}

INSTANTIATE_TEST_SUITE_P(Shards, DifferentialChurn, ::testing::Range(0, 8));

// Clean corpus: with no racy pattern and no mistakes nothing may be reported.
TEST(DifferentialClean, RaceFreeTracesReportNothing) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    GeneratorOptions o = options_for(seed * 7919);
    o.racy_weight = 0;
    o.mistake_percent = 0;
    o.extras_weight = 0;       // relaxed publication and broken release sequences race by design
    o.lock_lifecycle = false;  // a lock destroyed between critical sections orders nothing: races
    o.churn = seed % 2 == 0;   // reused slots must not make ordered accesses look concurrent
    TraceGenerator generator(o);
    DjitDetector golden;
    FastTrackDetector fast;
    Event e;
    uint64_t index = 0;
    while (generator.next(e)) {
      golden.process(e, index);
      fast.process(e, index++);
    }
    EXPECT_TRUE(golden.races().empty()) << "seed " << o.seed;
    EXPECT_TRUE(fast.races().empty()) << "seed " << o.seed;
  }
}

}  // namespace
}  // namespace raceaccel
