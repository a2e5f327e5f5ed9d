// FastTrack's run pages (fasttrack_shadow.hpp, docs/detectors.md "Run
// pages"): a page whose granules differ is held as runs of equal granules
// until it has more runs than the limit, or meets an atomic access, and is
// then materialized. Each run takes an access's rule once for all its
// granules, so every verdict, race report and per-byte state must be what
// the cells (and DJIT+) give: the random traces compare with DJIT+ at
// several limits, including limits so low that pages move between runs and
// cells all the time.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <tuple>

#include "../common/golden_races.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "rw_lock_steps.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::Feeder;

constexpr uint64_t kPage = 4096;

// thread_per_task's shape: a page written by one thread, then each 256-byte
// chunk read by a thread of its own. Sixteen runs, no cells; each chunk
// reads as its reader's epoch. A write of the whole page that every read
// happens before takes each run's rule once (the runs keep their readers:
// FastTrack's write leaves R_x); a free makes the page uniform again.
TEST(FastTrackRunPages, ChunksReadByThreadsKeepARunEach) {
  constexpr uint64_t kBase = 0x50'0000;
  FastTrackDetector ft;
  Feeder f{&ft};
  f.write(0, kBase, kPage, 1);
  for (ThreadId t = 1; t <= 16; ++t) f.fork(0, t);
  for (ThreadId t = 1; t <= 16; ++t) f.read(t, kBase + (t - 1) * 256, 256, 2);
  EXPECT_EQ(ft.run_pages(), 1u);
  EXPECT_EQ(ft.materialized_pages(), 0u);
  EXPECT_FALSE(ft.page_is_uniform(kBase));
  for (ThreadId t = 1; t <= 16; ++t) {
    for (const uint64_t a : {kBase + (t - 1) * 256, kBase + t * 256 - 1}) {
      EXPECT_EQ(ft.read_state(a).epoch, (Epoch{t, 1})) << a;
      EXPECT_EQ(ft.write_epoch(a), (Epoch{0, 1})) << a;
    }
  }
  for (ThreadId t = 1; t <= 16; ++t) f.join(0, t);
  f.write(0, kBase, kPage, 3);
  EXPECT_EQ(ft.run_pages(), 1u);
  EXPECT_EQ(ft.write_epoch(kBase + kPage - 1), (Epoch{0, 17}));  // 16 forks ticked thread 0
  EXPECT_EQ(ft.read_state(kBase + kPage - 1).epoch, (Epoch{16, 1}));
  f.free(0, kBase, kPage);
  EXPECT_TRUE(ft.page_is_uniform(kBase));
  EXPECT_EQ(ft.run_pages(), 0u);
  EXPECT_TRUE(ft.races().empty());
}

// Two unordered reads of a whole page: one run owning one read clock (the
// cells would take 512). A write of one granule ordered after both cuts the
// run in three: the outer runs own a read clock each, the written granule
// none. Then every byte's state is what it would be in cells.
TEST(FastTrackRunPages, ARunOwnsOneReadClockAndACutCopiesIt) {
  constexpr uint64_t kBase = 0x51'0000;
  FastTrackDetector ft;
  Feeder f{&ft};
  f.write(0, kBase, kPage);
  f.fork(0, 1);
  f.read(0, kBase, kPage);
  f.read(1, kBase, kPage);
  EXPECT_EQ(ft.read_clocks_in_use(), 1u);
  EXPECT_EQ(ft.run_pages(), 1u);
  f.join(0, 1);
  f.write(0, kBase + 1024, 8);
  EXPECT_EQ(ft.read_clocks_in_use(), 2u);
  EXPECT_FALSE(ft.read_state(kBase + 1024).shared);
  for (const uint64_t a : {kBase, kBase + 1023, kBase + 1032, kBase + kPage - 1}) {
    const auto state = ft.read_state(a);
    ASSERT_TRUE(state.shared) << a;
    EXPECT_EQ(state.clock.get(0), 2u);
    EXPECT_EQ(state.clock.get(1), 1u);
  }
  EXPECT_EQ(ft.materialized_pages(), 0u);
  EXPECT_TRUE(ft.races().empty());
}

// A byte written inside a uniform page: the granule gets a run of its own,
// split into bytes, the rest stays two runs. A free of part of the page
// resets its runs; a free of the whole page leaves nothing.
TEST(FastTrackRunPages, APartialGranuleIsARunOfItsOwn) {
  constexpr uint64_t kBase = 0x52'0000;
  FastTrackDetector ft;
  Feeder f{&ft};
  f.write(0, kBase, kPage, 1);
  f.tick(0);
  f.write(0, kBase + 1000 + 3, 1, 2);
  EXPECT_EQ(ft.run_pages(), 1u);
  EXPECT_EQ(ft.materialized_pages(), 0u);
  EXPECT_EQ(ft.granule_parts(kBase + 1000), 8u);
  EXPECT_EQ(ft.write_epoch(kBase + 1003), (Epoch{0, 2}));
  EXPECT_EQ(ft.write_epoch(kBase + 1002), (Epoch{0, 1}));
  EXPECT_EQ(ft.write_epoch(kBase + 1008), (Epoch{0, 1}));
  f.free(0, kBase + 998, 9);  // bytes 998..1006: the split granule's first seven bytes and two before
  EXPECT_EQ(ft.write_epoch(kBase + 1003), (Epoch{}));
  EXPECT_EQ(ft.write_epoch(kBase + 997), (Epoch{0, 1}));
  EXPECT_EQ(ft.write_epoch(kBase + 1007), (Epoch{0, 1}));
  f.free(0, kBase, kPage);
  EXPECT_TRUE(ft.page_is_uniform(kBase));
  EXPECT_EQ(ft.run_pages(), 0u);
  EXPECT_EQ(ft.write_epoch(kBase + 1007), (Epoch{}));
}

// More runs than the limit, or an atomic access, materializes the page with
// every granule's state.
TEST(FastTrackRunPages, TooManyRunsOrAnAtomicMaterialize) {
  constexpr uint64_t kBase = 0x53'0000;
  FastTrackDetector ft;
  ft.set_max_runs(4);
  Feeder f{&ft};
  f.write(0, kBase, 2 * kPage, 1);
  f.tick(0);
  f.write(0, kBase + 64, 8, 2);  // three runs
  EXPECT_EQ(ft.run_pages(), 1u);
  f.write(0, kBase + 128, 8, 3);  // five
  EXPECT_EQ(ft.run_pages(), 0u);
  EXPECT_EQ(ft.materialized_pages(), 1u);
  EXPECT_EQ(ft.write_epoch(kBase + 64), (Epoch{0, 2}));
  EXPECT_EQ(ft.write_epoch(kBase + 72), (Epoch{0, 1}));
  EXPECT_EQ(ft.write_epoch(kBase + 128), (Epoch{0, 2}));
  f.write(0, kBase + kPage + 64, 8, 2);
  EXPECT_EQ(ft.run_pages(), 1u);
  f.store(0, kBase + kPage + 256, MemoryOrder::Release);
  EXPECT_EQ(ft.run_pages(), 0u);
  EXPECT_EQ(ft.materialized_pages(), 2u);
  EXPECT_EQ(ft.write_epoch(kBase + kPage + 64), (Epoch{0, 2}));
  EXPECT_TRUE(ft.races().empty());
}

// A racing write over runs reports every byte, in address order, with each
// byte's own earlier access, as DJIT+ does.
TEST(FastTrackRunPages, ARacingWriteReportsEveryByteOfEachRun) {
  constexpr uint64_t kBase = 0x54'0000;
  DjitDetector golden;
  FastTrackDetector ft;
  Feeder f{&golden, &ft};
  f.write(0, kBase, kPage, 5);
  f.tick(0);
  f.write(0, kBase + 100, 300, 6);
  f.write(0, kBase + 1001, 2, 7);
  EXPECT_EQ(ft.run_pages(), 1u);
  f.write(1, kBase + 50, 2000, 8);  // unordered with all of them
  EXPECT_EQ(ft.races(), golden.races());
  EXPECT_EQ(ft.races().size(), 2000u);
}

// Random traces with no atomic accesses (so that pages stay runs): four
// threads, a reader-writer lock and private locks, reads and writes of 1 to
// 3000 bytes at any offset over three pages, mostly in each thread's own
// part so that runs form, frees and allocations of ranges. FastTrack must
// report exactly what DJIT+ reports at every limit.
class RunPageTrace {
 public:
  static constexpr uint64_t kBase = 0x60'0000 - 512;  // straddles pages
  static constexpr uint64_t kWindow = 3 * kPage;
  static constexpr uint32_t kThreads = 4;

  explicit RunPageTrace(uint64_t seed) : rng_(seed) {}

  Event next() {
    const auto t = static_cast<ThreadId>(pick(0, kThreads - 1));
    const uint64_t roll = pick(0, 99);
    if (roll < 15) return lock_step(t);
    const uint64_t site = 1 + pick(0, 2);
    if (roll < 20) {
      const auto [addr, size] = range(t);
      return Event::range(pick(0, 1) == 0 ? Op::Free : Op::Alloc, t, addr, size);
    }
    const Op op = pick(0, 2) == 0 ? Op::Write : Op::Read;
    if (roll < 75) {
      const auto [addr, size] = range(t);
      return Event::range(op, t, addr, size, site);
    }
    const uint64_t size = std::array<uint64_t, 6>{1, 2, 3, 4, 8, 16}[pick(0, 5)];
    return Event::range(op, t, near(t) + pick(0, 1000), size, site);
  }

 private:
  Event lock_step(ThreadId t) {
    return lock_.next(t, [&] { return pick(0, 2) == 0; });
  }
  uint64_t near(ThreadId t) {
    if (pick(0, 9) < 7) return kBase + t * (kWindow / kThreads);
    return kBase + pick(0, kWindow - 3000);
  }
  std::pair<uint64_t, uint64_t> range(ThreadId t) {
    uint64_t addr = near(t) + pick(0, 900);
    uint64_t size = pick(0, 3) == 0 ? pick(1, 3000) : pick(1, 400);
    if (pick(0, 1) == 0) {
      addr &= ~uint64_t{7};
      size = (size + 7) & ~uint64_t{7};
    }
    size = std::min(size, kBase + kWindow - addr);
    return {addr, size};
  }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }

  std::mt19937_64 rng_;
  test::RwLockSteps<kThreads> lock_{7};
};

TEST(FastTrackRunPages, RandomTracesAgreeWithDjitAtEveryLimit) {
  uint64_t races = 0, run_page_events = 0, reads_shared = 0, split = 0;
  constexpr std::array<uint32_t, 5> kLimits{1, 2, 4, 32, 512};
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    RunPageTrace trace(seed);
    DjitDetector golden;
    FastTrackDetector fast;
    fast.set_max_runs(kLimits[seed % kLimits.size()]);
    for (uint64_t i = 0; i < 300; ++i) {
      const Event e = trace.next();
      golden.process(e, i);
      fast.process(e, i);
      run_page_events += fast.run_pages() != 0 ? 1 : 0;
    }
    ASSERT_TRUE(test::same_races_as_golden(golden.races(), fast.races())) << "seed " << seed;
    races += golden.races().size();
    for (uint64_t a = RunPageTrace::kBase; a < RunPageTrace::kBase + RunPageTrace::kWindow; a += 8) {
      reads_shared += fast.read_state(a).shared ? 1 : 0;
      split += fast.granule_parts(a) > 1 ? 1 : 0;
    }
  }
  RecordProperty("races", static_cast<int>(races));
  // The traces must race, keep pages as runs, and reach read clocks and
  // split granules inside them.
  EXPECT_GT(races, 10'000u);
  EXPECT_GT(run_page_events, 50'000u);
  EXPECT_GT(reads_shared, 1'000u);
  EXPECT_GT(split, 1'000u);
}

}  // namespace
}  // namespace raceaccel
