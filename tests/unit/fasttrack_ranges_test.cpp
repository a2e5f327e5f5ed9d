// FastTrack's uniform shadow pages (one cell for a 4 KiB page whose 512
// granules are equal): large blocks cost little shadow, whole-page accesses
// keep pages uniform, anything that would make granules differ turns the
// page into runs or materializes it first, and every race is still reported
// per byte exactly as DJIT+ reports it. The random traces mix whole-page, multi-page and partial-page
// reads, writes, allocs and frees (aligned and unaligned ends) with small
// accesses by several threads.
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <array>
#include <random>
#include <tuple>

#include "../common/golden_races.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::Feeder;
using test::races_over;

constexpr uint64_t kPage = 4096;

// Bytes the C heap has handed out (small blocks and mmapped ones).
size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// A range access as the runtime sends it: pieces of at most kMaxAccessBytes.
void feed_range(Feeder& f, Op op, ThreadId t, uint64_t addr, uint64_t size, uint64_t site = 0) {
  while (size > 0) {
    const uint64_t n = std::min(size, kMaxAccessBytes);
    f.feed(Event::range(op, t, addr, n, site));
    addr += n;
    size -= n;
  }
}

// The life of a 256 MiB heap block as the runtime records it, at a
// page-aligned address + 16 as glibc's mmapped chunks are: alloc, the
// allocator's write, a read of half, the free's write, free. Per-granule
// shadow would take 1 GiB; uniform pages take a few bytes each.
TEST(FastTrackRanges, LargeBlockKeepsItsPagesUniform) {
  constexpr uint64_t kBase = 0x7f00'0000'0000 + 16, kSize = uint64_t{256} << 20;
  FastTrackDetector ft;
  Feeder f{&ft};
  const size_t heap_before = heap_in_use();
  f.alloc(0, kBase, kSize);
  feed_range(f, Op::Write, 0, kBase, kSize, 1);
  feed_range(f, Op::Read, 0, kBase, kSize / 2, 2);
  f.tick(0);
  feed_range(f, Op::Write, 0, kBase, kSize, 3);
  EXPECT_LT(heap_in_use() - heap_before, size_t{16} << 20);
  // Only pages cut by an event's ends hold cells: the block's two ends and
  // one page per 16 MiB boundary.
  EXPECT_LE(ft.materialized_pages(), 2 + kSize / kMaxAccessBytes);
  EXPECT_TRUE(ft.page_is_uniform(kBase + kSize / 3));
  for (uint64_t a : {kBase, kBase + 4079, kBase + 4080, kBase + kSize / 2 - 1, kBase + kSize / 2, kBase + kSize - 1}) {
    EXPECT_EQ(ft.write_epoch(a), (Epoch{0, 2})) << std::hex << a;
    EXPECT_EQ(ft.granule_parts(a), 1u) << std::hex << a;
  }
  EXPECT_EQ(ft.read_state(kBase + 100).epoch, (Epoch{0, 1}));
  EXPECT_EQ(ft.read_state(kBase + kSize / 2).epoch, (Epoch{}));
  EXPECT_EQ(ft.write_epoch(kBase - 1), (Epoch{}));  // the chunk header was never written
  f.free(0, kBase, kSize);
  EXPECT_EQ(ft.materialized_pages(), 0u);
  EXPECT_EQ(ft.write_epoch(kBase + kSize / 2), (Epoch{}));
  EXPECT_TRUE(ft.races().empty());
}

// A racing range write reports every byte, in address order, whether the
// pages it covers are uniform or not, exactly as DJIT+ does.
TEST(FastTrackRanges, RacingRangeWriteReportsEveryByte) {
  constexpr uint64_t kBase = 0x10'0000;
  DjitDetector golden;
  FastTrackDetector ft;
  Feeder f{&golden, &ft};
  f.write(0, kBase, 3 * kPage, 5);  // three uniform pages
  f.tick(0);
  f.write(0, kBase + kPage + 8, 4, 6);  // the middle one materialized
  EXPECT_TRUE(ft.page_is_uniform(kBase));
  EXPECT_FALSE(ft.page_is_uniform(kBase + kPage));
  const uint64_t racing = f.write(1, kBase + 100, 2 * kPage, 7);  // unordered
  const std::vector<Race> expected = test::concat({
      races_over(kBase + 100, kPage + 8 - 100, racing, RaceKind::WriteWrite, 1, 0, 1, 7, 5),
      races_over(kBase + kPage + 8, 4, racing, RaceKind::WriteWrite, 1, 0, 2, 7, 6),
      races_over(kBase + kPage + 12, kPage + 100 - 12, racing, RaceKind::WriteWrite, 1, 0, 1, 7, 5),
  });
  EXPECT_EQ(ft.races(), expected);
  EXPECT_EQ(golden.races(), expected);
}

// Two unordered reads of a whole uniform page give every granule a read
// vector clock (READ SHARE): with run pages off the page is materialized
// first (with them, it is one run owning one read clock:
// fasttrack_run_pages_test.cpp). A later write that every read happens
// before frees the clocks and makes it uniform again.
TEST(FastTrackRanges, SharedReadsOfAWholePageMaterializeIt) {
  constexpr uint64_t kBase = 0x20'0000;
  FastTrackDetector ft;
  ft.set_max_runs(0);
  Feeder f{&ft};
  f.write(0, kBase, kPage);
  f.fork(0, 1);
  f.read(0, kBase, kPage);
  EXPECT_TRUE(ft.page_is_uniform(kBase));  // READ EXCLUSIVE keeps the granules equal
  f.read(1, kBase, kPage);
  EXPECT_FALSE(ft.page_is_uniform(kBase));
  EXPECT_EQ(ft.read_clocks_in_use(), kPage / 8);
  for (uint64_t a : {kBase, kBase + kPage - 1}) {
    const auto state = ft.read_state(a);
    EXPECT_TRUE(state.shared);
    EXPECT_EQ(state.clock.get(0), 2u);
    EXPECT_EQ(state.clock.get(1), 1u);
  }
  f.join(0, 1);
  f.write(0, kBase, kPage);
  EXPECT_TRUE(ft.page_is_uniform(kBase));
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
  EXPECT_EQ(ft.materialized_pages(), 0u);
  EXPECT_TRUE(ft.races().empty());
}

// A free of whole pages drops their cells, read clocks and split parts; a
// free of part of a page leaves the rest alone, and a large free (half a
// page or more) that leaves nothing in a page makes it uniform ⊥.
TEST(FastTrackRanges, FreeingWholePagesDropsTheirCells) {
  constexpr uint64_t kBase = 0x30'0000;
  FastTrackDetector ft;
  ft.set_max_runs(0);  // pages materialize (run pages: fasttrack_run_pages_test.cpp)
  Feeder f{&ft};
  f.write(0, kBase + 3, 1);  // split into bytes
  f.fork(0, 1);
  f.read(0, kBase + 64, 8);
  f.read(1, kBase + 64, 8);  // a read clock
  f.write(0, kBase + kPage + 16, 8);
  EXPECT_EQ(ft.materialized_pages(), 2u);
  EXPECT_EQ(ft.read_clocks_in_use(), 1u);
  f.free(0, kBase, kPage);
  EXPECT_EQ(ft.materialized_pages(), 1u);
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
  EXPECT_EQ(ft.granule_parts(kBase), 1u);
  EXPECT_EQ(ft.write_epoch(kBase + 3), (Epoch{}));
  f.free(0, kBase + kPage + 8, 32);  // the page's only written granule: a small free keeps the cells
  EXPECT_EQ(ft.materialized_pages(), 1u);
  EXPECT_EQ(ft.write_epoch(kBase + kPage + 16), (Epoch{}));
  f.write(0, kBase + kPage + 2000, 8);
  f.free(0, kBase + kPage - 2048, 4096);  // a large free that empties the page
  EXPECT_EQ(ft.materialized_pages(), 0u);
  EXPECT_EQ(ft.write_epoch(kBase + kPage + 2000), (Epoch{}));
}

// Random traces over five pages: whole-page, multi-page and partial-page
// range accesses, allocs and frees with aligned and unaligned ends, small
// accesses at any offset, four threads and two locks. FastTrack must report
// what DJIT+ reports, byte for byte.
class RangeTrace {
 public:
  static constexpr uint64_t kBase = 0x40'0000;
  static constexpr uint64_t kWindow = 5 * kPage;

  explicit RangeTrace(uint64_t seed) : rng_(seed) {}

  Event next() {
    const ThreadId t = static_cast<ThreadId>(pick(0, kThreads - 1));
    const uint64_t roll = pick(0, 99);
    if (roll < 20) {  // per thread, alternately acquire and release one of two locks
      if (held_[t] != 0) {
        const uint64_t lock = held_[t];
        held_[t] = 0;
        return Event::sync(Op::Release, t, lock);
      }
      held_[t] = 1 + pick(0, 1);
      return Event::sync(Op::Acquire, t, held_[t]);
    }
    if (roll < 28) {
      const auto [addr, size] = range();
      return Event::range(pick(0, 3) == 0 ? Op::Alloc : Op::Free, t, addr, size);
    }
    const uint64_t site = 1 + pick(0, 5);
    const Op op = pick(0, 1) == 0 ? Op::Read : Op::Write;
    if (roll < 65) {
      const auto [addr, size] = range();
      return Event::range(op, t, addr, size, site);
    }
    const uint64_t size = std::array<uint64_t, 5>{1, 2, 4, 8, 16}[pick(0, 4)];
    return Event::range(op, t, kBase + pick(0, kWindow - size), size, site);
  }

 private:
  static constexpr uint32_t kThreads = 4;
  // Whole pages half the time; otherwise unaligned ends, within one page or across several.
  std::pair<uint64_t, uint64_t> range() {
    const uint64_t kind = pick(0, 3);
    if (kind <= 1) {
      const uint64_t pages = pick(1, 3);
      return {kBase + pick(0, 5 - pages) * kPage, pages * kPage};
    }
    const uint64_t size = kind == 2 ? pick(1, kPage) : pick(kPage, 3 * kPage);
    return {kBase + pick(0, kWindow - size), size};
  }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
  std::mt19937_64 rng_;
  std::array<uint64_t, kThreads> held_{};
};

// The seeds in turn with run pages off (0), kept to 2 runs, and at the default.
TEST(FastTrackRanges, RandomRangeTracesAgreeWithDjit) {
  uint64_t races = 0, uniform_page_accesses = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    RangeTrace trace(seed);
    DjitDetector golden;
    FastTrackDetector fast;
    fast.set_max_runs(std::array<uint32_t, 3>{0, 2, Shadow::kDefaultMaxRuns}[seed % 3]);
    for (uint64_t i = 0; i < 150; ++i) {
      const Event e = trace.next();
      if (is_access(e.op) && e.size >= kPage && fast.page_is_uniform(e.addr + kPage - 1)) ++uniform_page_accesses;
      golden.process(e, i);
      fast.process(e, i);
    }
    ASSERT_TRUE(test::same_races_as_golden(golden.races(), fast.races())) << "seed " << seed;
    races += golden.races().size();
  }
  RecordProperty("races", static_cast<int>(races));
  RecordProperty("uniform_page_accesses", static_cast<int>(uniform_page_accesses));
  // The traces must race and must reach uniform pages to mean anything.
  EXPECT_GT(races, 100'000u);
  EXPECT_GT(uniform_page_accesses, 1'000u);
}

}  // namespace
}  // namespace raceaccel
