// FastTrack's split granules (whole, 2 halves, 4 quarters, 8 bytes) against
// the golden DJIT+ detector: random traces of 1/2/3/4/8/16-byte accesses at
// every offset of a few neighbouring granules, atomic loads, stores and RMWs
// of 1 to 8 bytes over the same bytes, frees of sub-ranges (which split and
// merge), byte- and word-wise passes over one granule by one thread at one
// site (whose last access merges the parts back when they agree), and
// enough synchronization that most accesses are
// ordered, so a granule goes through many refinements and merges before its
// bytes race. Both detectors must report the same (byte, event, kind) and
// the same earlier write.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <tuple>
#include <vector>

#include "../common/golden_races.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"

namespace raceaccel {
namespace {

constexpr uint64_t kBase = 0x10000 - 8;  // the window straddles a shadow page boundary
constexpr uint64_t kWindow = 40;         // bytes: five granules

class RandomTrace {
 public:
  explicit RandomTrace(uint64_t seed) : rng_(seed) {}

  Event next() {
    if (!pass_.empty()) {
      const Event e = pass_.back();
      pass_.pop_back();
      return e;
    }
    const ThreadId t = static_cast<ThreadId>(pick(0, kThreads - 1));
    const uint64_t roll = pick(0, 104);
    if (roll >= 100) return start_pass(t);
    if (roll < 12) {  // one lock: alternate acquire and release per thread
      const Op op = held_[t] ? Op::Release : Op::Acquire;
      held_[t] = !held_[t];
      return Event::sync(op, t, 1);
    }
    if (roll < 14) return Event::range(Op::Free, t, kBase + pick(0, kWindow - 1), pick(1, 12));
    if (roll < 26) {  // an atomic access, naturally aligned, over the same bytes as plain ones
      const uint64_t size = uint64_t{1} << pick(0, 3);
      const auto order = static_cast<MemoryOrder>(pick(0, kMemoryOrderCount - 1));
      const Op op = std::array{Op::AtomicLoad, Op::AtomicStore, Op::AtomicRmw}[pick(0, 2)];
      return Event::atomic(op, t, kBase + pick(0, kWindow / size - 1) * size, size, order, 1 + pick(0, 5));
    }
    const uint64_t size = kSizes[pick(0, kSizes.size() - 1)];
    uint64_t offset;
    if (size <= 8 && pick(0, 3) != 0) {
      offset = pick(0, kWindow / size - 1) * size;  // naturally aligned
    } else {
      offset = pick(0, kWindow - std::min(size, kWindow));
    }
    const uint64_t site = 1 + pick(0, 5);
    return pick(0, 1) == 0 ? Event::read(t, kBase + offset, size, site) : Event::write(t, kBase + offset, size, site);
  }

 private:
  static constexpr uint32_t kThreads = 3;
  static constexpr std::array<uint64_t, 8> kSizes = {1, 2, 2, 4, 4, 8, 3, 16};
  // A pass over one granule in ascending order (kept reversed in pass_).
  Event start_pass(ThreadId t) {
    const uint64_t size = uint64_t{1} << pick(0, 2);
    const uint64_t granule = kBase + pick(0, kWindow / 8 - 1) * 8;
    const bool write = pick(0, 1) == 0;
    const uint64_t site = 1 + pick(0, 1);
    for (uint64_t offset = 8; offset != 0; offset -= size) {
      const uint64_t addr = granule + offset - size;
      pass_.push_back(write ? Event::write(t, addr, size, site) : Event::read(t, addr, size, site));
    }
    return next();
  }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
  std::mt19937_64 rng_;
  std::array<bool, kThreads> held_{};
  std::vector<Event> pass_;
};

TEST(FastTrackGranularity, MixedSizesAtAllOffsetsAgreeWithDjit) {
  uint64_t merges = 0;
  uint64_t races = 0;
  uint64_t events = 0;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    RandomTrace trace(seed);
    DjitDetector golden;
    FastTrackDetector fast;
    for (uint64_t i = 0; i < 400; ++i) {
      const Event e = trace.next();
      golden.process(e, i);
      const unsigned parts_before = fast.granule_parts(e.addr);
      fast.process(e, i);
      // A narrow plain access that ended its granule and left one cell.
      if (is_access(e.op) && e.size < 8 && (e.addr + e.size) % 8 == 0 && parts_before > 1 &&
          fast.granule_parts(e.addr) == 1)
        ++merges;
    }
    events += 400;
    ASSERT_TRUE(test::same_races_as_golden(golden.races(), fast.races())) << "seed " << seed;
    races += golden.races().size();
  }
  // The traces must actually race (and not only a little), and merge parts
  // after passes, to mean anything.
  EXPECT_GT(races, events / 100);
  EXPECT_GT(merges, 100u);
}

// An aligned 4-byte access splits a granule into halves, not bytes: the
// other half keeps its own state, a 2-byte access refines the halves into
// quarters, and an 8-byte write merges them back into one cell.
TEST(FastTrackGranularity, HalvesKeepSeparateStateAndMergeBack) {
  FastTrackDetector ft;
  EXPECT_EQ(ft.granule_parts(0x1000), 1u);  // never touched
  ft.process(Event::write(0, 0x1000, 8), 0);
  EXPECT_EQ(ft.granule_parts(0x1000), 1u);
  ft.process(Event::sync(Op::Fork, 0, 1), 1);
  ft.process(Event::write(1, 0x1004, 4), 2);
  EXPECT_EQ(ft.granule_parts(0x1000), 2u);
  EXPECT_EQ(ft.write_epoch(0x1000).slot, 0u);
  EXPECT_EQ(ft.write_epoch(0x1003).slot, 0u);
  EXPECT_EQ(ft.write_epoch(0x1004).slot, 1u);
  EXPECT_EQ(ft.write_epoch(0x1007).slot, 1u);
  ft.process(Event::write(1, 0x1002, 2), 3);
  EXPECT_EQ(ft.granule_parts(0x1000), 4u);
  EXPECT_EQ(ft.write_epoch(0x1001).slot, 0u);
  EXPECT_EQ(ft.write_epoch(0x1002).slot, 1u);
  EXPECT_EQ(ft.write_epoch(0x1004).slot, 1u);
  ft.process(Event::write(1, 0x1000, 8), 4);
  EXPECT_EQ(ft.granule_parts(0x1000), 1u);
  for (uint64_t a = 0x1000; a < 0x1008; ++a) EXPECT_EQ(ft.write_epoch(a).slot, 1u);
  EXPECT_EQ(ft.granule_parts(0x1008), 1u);  // the neighbour was never split
  EXPECT_TRUE(ft.races().empty());
}

// A byte-wise pass over a granule (all bytes in one epoch, at one site)
// leaves its eight byte cells equal: the access that ends the granule merges
// them back into one cell (a byte-wise fill of 4 MiB took 283 MiB of shadow
// before). Bytes with different histories stay apart.
TEST(FastTrackGranularity, ByteWisePassMergesTheGranuleBack) {
  FastTrackDetector ft;
  uint64_t index = 0;
  for (uint64_t b = 0; b < 8; ++b) {
    ft.process(Event::write(0, 0x2000 + b, 1, 7), index++);
    EXPECT_EQ(ft.granule_parts(0x2000), b < 7 ? 8u : 1u) << "after byte " << b;
  }
  ft.process(Event::sync(Op::Fork, 0, 1), index++);
  for (uint64_t b = 0; b < 8; ++b) {
    ft.process(Event::read(1, 0x2000 + b, 1, 9), index++);
    EXPECT_EQ(ft.granule_parts(0x2000), b < 7 ? 8u : 1u) << "after read of byte " << b;
  }
  for (uint64_t a = 0x2000; a < 0x2008; ++a) {
    EXPECT_EQ(ft.write_epoch(a).slot, 0u);
    EXPECT_EQ(ft.read_state(a).epoch.slot, 1u);
  }
  // Two sites: the bytes' histories differ (the site of the last write is
  // part of it), so nothing merges.
  for (uint64_t b = 0; b < 8; ++b) ft.process(Event::write(1, 0x3000 + b, 1, b % 2 == 0 ? 11 : 12), index++);
  EXPECT_EQ(ft.granule_parts(0x3000), 8u);
  EXPECT_TRUE(ft.races().empty());
}

// Splitting a granule whose reads are shared (R_x a vector clock) gives each
// part a read clock of its own: the first part takes the granule's over, the
// others get copies, so a later read of one part leaves the others' alone
// and no read clock is leaked or shared.
TEST(FastTrackGranularity, SplittingSharedReadsGivesEachPartItsOwnClock) {
  FastTrackDetector ft;
  ft.process(Event::sync(Op::Fork, 0, 1), 0);
  ft.process(Event::read(0, 0x2000, 8), 1);
  ft.process(Event::read(1, 0x2000, 8), 2);
  ASSERT_TRUE(ft.read_state(0x2000).shared);
  EXPECT_EQ(ft.read_clocks_in_use(), 1u);
  const std::vector<uint64_t> both = ft.read_state(0x2000).clock.dense();
  ft.process(Event::sync(Op::Fork, 0, 2), 3);
  ft.process(Event::read(2, 0x2004, 4), 4);  // halves
  EXPECT_EQ(ft.granule_parts(0x2000), 2u);
  EXPECT_EQ(ft.read_clocks_in_use(), 2u);
  EXPECT_EQ(ft.read_state(0x2000).clock.dense(), both);  // the taken-over clock, unchanged
  const std::vector<uint64_t> upper = ft.read_state(0x2004).clock.dense();
  ASSERT_EQ(upper.size(), 3u);
  EXPECT_EQ(upper[0], both[0]);
  EXPECT_EQ(upper[1], both[1]);
  EXPECT_NE(upper[2], 0u);                   // thread 2's read, in the upper half only
  ft.process(Event::read(2, 0x2001, 1), 5);  // halves into bytes
  EXPECT_EQ(ft.granule_parts(0x2000), 8u);
  EXPECT_EQ(ft.read_clocks_in_use(), 8u);
  for (uint64_t a : {0x2000u, 0x2002u, 0x2003u}) EXPECT_EQ(ft.read_state(a).clock.dense(), both) << a;
  EXPECT_EQ(ft.read_state(0x2001).clock.dense(), upper);
  for (uint64_t a = 0x2004; a < 0x2008; ++a) EXPECT_EQ(ft.read_state(a).clock.dense(), upper) << a;
  EXPECT_TRUE(ft.races().empty());
}

}  // namespace
}  // namespace raceaccel
