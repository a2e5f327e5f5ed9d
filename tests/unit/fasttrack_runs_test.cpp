// FastTrack's whole-granule loop (FastTrackDetector::access_whole_granules):
// the body of a range or of a 16-byte access is checked granule by granule
// in one loop, and a granule whose cell equals the one checked just before
// it takes that cell's result without a check (a run of equal cells). The
// random traces here are built so that runs form and are then cut: mostly
// ordered accesses (a reader-writer lock, each thread's own region) so cells
// stay equal rather than racing, ranges that partially overlap earlier ones,
// narrower accesses of every size (split cells inside a range), writes inside
// read ranges, concurrent reads (read clocks, which a run must not share),
// atomic accesses (history looked up per address), frees inside ranges and a
// few racing accesses. FastTrack must report exactly what DJIT+ reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <tuple>

#include "../common/golden_races.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "rw_lock_steps.hpp"

namespace raceaccel {
namespace {

using test::race_keys;

class RunTrace {
 public:
  static constexpr uint64_t kBase = 0x60'0000 - 1024;  // the window straddles shadow pages
  static constexpr uint64_t kWindow = 3 * 4096;
  static constexpr uint32_t kThreads = 4;
  static constexpr uint64_t kLock = 7;

  explicit RunTrace(uint64_t seed) : rng_(seed) {}

  Event next() {
    const auto t = static_cast<ThreadId>(pick(0, kThreads - 1));
    const uint64_t roll = pick(0, 99);
    if (roll < 15) return lock_step(t);
    const uint64_t site = 1 + pick(0, 2);  // few sites: neighbouring cells stay equal
    if (roll < 19) {
      const auto [addr, size] = range(t);
      return Event::range(pick(0, 1) == 0 ? Op::Free : Op::Alloc, t, addr, size);
    }
    if (roll < 25) {
      const uint64_t size = std::array<uint64_t, 4>{1, 2, 4, 8}[pick(0, 3)];
      const Op op = std::array<Op, 3>{Op::AtomicLoad, Op::AtomicStore, Op::AtomicRmw}[pick(0, 2)];
      const auto order = static_cast<MemoryOrder>(pick(0, kMemoryOrderCount - 1));
      return Event::atomic(op, t, kBase + pick(0, kWindow / size - 1) * size, size, order, site);
    }
    // Reads outnumber writes, so read clocks form under the shared lock.
    const Op op = pick(0, 2) == 0 ? Op::Write : Op::Read;
    if (roll < 70) {
      const auto [addr, size] = range(t);
      return Event::range(op, t, addr, size, site);
    }
    // Narrower accesses at any offset, aligned half the time: they split
    // cells inside what later ranges cover.
    const uint64_t size = std::array<uint64_t, 6>{1, 2, 3, 4, 8, 16}[pick(0, 5)];
    uint64_t addr = near(t) + pick(0, 1023 - size);
    if (pick(0, 1) == 0) addr &= ~(std::min<uint64_t>(size, 8) - 1);
    return Event::range(op, t, addr, size, site);
  }

 private:
  Event lock_step(ThreadId t) {
    return lock_.next(t, [&] { return pick(0, 2) == 0; });
  }
  // Threads work mostly in their own quarter of the window, sometimes anywhere.
  uint64_t near(ThreadId t) {
    if (pick(0, 9) < 7) return kBase + t * (kWindow / kThreads);
    return kBase + pick(0, kWindow - 1024);
  }
  // 1 to 700 bytes, ends aligned to granules or not: ranges overlap earlier
  // ones in part and cover runs of equal cells.
  std::pair<uint64_t, uint64_t> range(ThreadId t) {
    uint64_t addr = near(t) + pick(0, 700);
    uint64_t size = pick(1, 700);
    if (pick(0, 1) == 0) {
      addr &= ~uint64_t{7};
      size = (size + 7) & ~uint64_t{7};
    }
    return {addr, size};
  }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }

  std::mt19937_64 rng_;
  test::RwLockSteps<kThreads> lock_{kLock};
};

// With every page materialized (shadow runs off), so that the whole-granule
// loop meets every range; docs/detectors.md's run pages are tested the same
// way in fasttrack_run_pages_test.cpp.
TEST(FastTrackRuns, RandomRangeRunsAgreeWithDjit) {
  uint64_t races = 0, reads_shared = 0, split = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    RunTrace trace(seed);
    DjitDetector golden;
    FastTrackDetector fast;
    fast.set_max_runs(0);
    for (uint64_t i = 0; i < 400; ++i) {
      const Event e = trace.next();
      golden.process(e, i);
      fast.process(e, i);
    }
    ASSERT_TRUE(test::same_races_as_golden(golden.races(), fast.races())) << "seed " << seed;
    races += golden.races().size();
    for (uint64_t a = RunTrace::kBase; a < RunTrace::kBase + RunTrace::kWindow; a += 8) {
      reads_shared += fast.read_state(a).shared ? 1 : 0;
      split += fast.granule_parts(a) > 1 ? 1 : 0;
    }
  }
  RecordProperty("races", static_cast<int>(races));
  // The traces must race somewhere, yet not everywhere (cells that raced
  // are skipped, runs form among the others), and must reach read clocks
  // and split cells.
  EXPECT_GT(races, 10'000u);
  EXPECT_GT(reads_shared, 1'000u);
  EXPECT_GT(split, 1'000u);
}

// A run of equal cells met by a read that concurrent reads make shared:
// every granule gets its own read clock (a run must not share one), and a
// later write of one granule leaves the others' read clocks alone.
TEST(FastTrackRuns, SharedReadOfARunGivesEachGranuleItsReadClock) {
  constexpr uint64_t kAddr = 0x7000'0000;
  FastTrackDetector ft;
  ft.set_max_runs(0);  // the cells' loop (a run page gives the run one read clock: fasttrack_run_pages_test.cpp)
  uint64_t i = 0;
  ft.process(Event::write(0, kAddr, 256, 1), i++);
  ft.process(Event::sync(Op::Fork, 0, 1), i++);
  ft.process(Event::sync(Op::Fork, 0, 2), i++);
  ft.process(Event::read(1, kAddr, 256, 2), i++);  // one run: 32 equal cells, each read by 1
  ft.process(Event::read(2, kAddr, 256, 3), i++);  // concurrent with 1's read: READ SHARE each
  EXPECT_EQ(ft.read_clocks_in_use(), 32u);
  ft.process(Event::sync(Op::Join, 0, 2), i++);
  ft.process(Event::sync(Op::Join, 0, 1), i++);
  ft.process(Event::write(0, kAddr + 8, 8, 4), i++);  // ordered after both reads
  EXPECT_EQ(ft.read_clocks_in_use(), 31u);
  EXPECT_FALSE(ft.read_state(kAddr + 8).shared);
  for (uint64_t a = kAddr; a < kAddr + 256; a += 8) {
    if (a == kAddr + 8) continue;
    const FastTrackDetector::ReadState s = ft.read_state(a);
    ASSERT_TRUE(s.shared) << a;
    EXPECT_EQ(s.clock.get(1), 1u);
    EXPECT_EQ(s.clock.get(2), 1u);
  }
  EXPECT_TRUE(ft.races().empty());
}

// A racing range over a run reports every byte of it, not the first granule's.
TEST(FastTrackRuns, RacingRangeOverARunReportsEveryByte) {
  constexpr uint64_t kAddr = 0x7000'0000 + 40;
  FastTrackDetector ft;
  DjitDetector dj;
  const std::vector<Event> events = {
      Event::write(0, kAddr, 512, 1), Event::sync(Op::Fork, 0, 1),
      Event::read(1, kAddr, 512, 2),       // ordered: one run of equal cells
      Event::write(0, kAddr + 3, 500, 3),  // concurrent with 1's read: every byte races
  };
  for (uint64_t i = 0; i < events.size(); ++i) {
    ft.process(events[i], i);
    dj.process(events[i], i);
  }
  EXPECT_EQ(ft.races().size(), 500u);
  EXPECT_EQ(race_keys(ft.races()), race_keys(dj.races()));
}

// Equal cells with different atomic histories (kept per address beside the
// cells): neither a read nor a write may take the first one's result for the
// second. Thread 0 is ordered after thread 1's atomic store to the first
// granule but not after thread 2's to the next two, so its read (three
// granules: a run) races on those only; once both are joined, its write
// drops the first one's history.
TEST(FastTrackRuns, EqualCellsWithDifferentAtomicHistoriesAreCheckedApart) {
  constexpr uint64_t kAddr = 0x7000'0000;
  const std::vector<Event> events = {
      Event::write(0, kAddr, 24, 1),
      Event::sync(Op::Fork, 0, 1),
      Event::sync(Op::Fork, 0, 2),
      Event::atomic(Op::AtomicStore, 1, kAddr, 8, MemoryOrder::Relaxed, 2),
      Event::atomic(Op::AtomicStore, 2, kAddr + 8, 8, MemoryOrder::Relaxed, 3),
      Event::atomic(Op::AtomicStore, 2, kAddr + 16, 8, MemoryOrder::Relaxed, 3),
      Event::sync(Op::Release, 1, 50),
      Event::sync(Op::Acquire, 0, 50),
      Event::read(0, kAddr, 24, 4),  // after 1's store, concurrent with 2's
      Event::sync(Op::Join, 0, 1),
      Event::sync(Op::Join, 0, 2),
      Event::write(0, kAddr, 24, 5),
  };
  FastTrackDetector ft;
  DjitDetector dj;
  for (uint64_t i = 0; i < events.size(); ++i) {
    ft.process(events[i], i);
    dj.process(events[i], i);
    if (i == 5) {
      EXPECT_EQ(ft.atomic_bytes(), 3u);  // one history per whole cell
      EXPECT_EQ(ft.granule_parts(kAddr), 1u);
    }
  }
  EXPECT_EQ(race_keys(ft.races()), race_keys(dj.races()));
  ASSERT_EQ(ft.races().size(), 16u);
  EXPECT_EQ(ft.races().front().addr, kAddr + 8);
  EXPECT_EQ(ft.races().front().kind, RaceKind::WriteRead);
  EXPECT_EQ(ft.atomic_bytes(), 2u);  // the first granule's went; raced ones are no longer checked
}

// A read of part of a whole read-shared cell by a thread that has read it
// in this epoch changes nothing (the cell's hint says so): the cell stays
// whole instead of splitting into parts with a read clock each. (The hint
// names the last reader only: another reader's part read still splits.)
TEST(FastTrackRuns, SameEpochSharedReadOfPartLeavesTheCellWhole) {
  constexpr uint64_t kAddr = 0x7000'0000;
  const std::vector<Event> events = {
      Event::write(0, kAddr, 16, 1),   Event::sync(Op::Fork, 0, 1),      Event::sync(Op::Fork, 0, 2),
      Event::read(1, kAddr, 16, 2),    Event::read(2, kAddr, 16, 3),      // both cells read-shared
      Event::read(2, kAddr + 4, 4, 4), Event::read(2, kAddr + 9, 1, 5),   // same epoch, parts
      Event::read(1, kAddr + 8, 2, 6), Event::write(1, kAddr + 2, 1, 7),  // a write does split
  };
  FastTrackDetector ft;
  DjitDetector dj;
  for (uint64_t i = 0; i < events.size(); ++i) {
    ft.process(events[i], i);
    dj.process(events[i], i);
    if (i == 6) {
      EXPECT_EQ(ft.granule_parts(kAddr), 1u);
      EXPECT_EQ(ft.granule_parts(kAddr + 8), 1u);
      EXPECT_EQ(ft.read_clocks_in_use(), 2u);
    }
  }
  EXPECT_EQ(race_keys(ft.races()), race_keys(dj.races()));
  EXPECT_EQ(ft.races().size(), 1u);  // thread 2's read of kAddr + 2 and thread 1's write
  EXPECT_EQ(ft.granule_parts(kAddr), 8u);
}

}  // namespace
}  // namespace raceaccel
