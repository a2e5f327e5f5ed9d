// Every FastTrack access rule (CACM Fig 3) observed through the detector's
// inspection API, every race check with the exact race reported, the
// first-race-per-location policy, byte precision across FastTrack's 8-byte
// shadow granules, and Alloc/Free. The golden DJIT+ detector is fed the same
// events and must report exactly the same races (checked after every test).
//
// A rule's effect that leaves R_x/W_x unchanged (the same-epoch skips) is
// made observable through the sites a later race reports: a skipped access
// does not replace the recorded site.
#include <gtest/gtest.h>

#include <string>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::concat;
using test::Feeder;
using test::race;
using test::races_over;

Epoch ep(uint32_t slot, uint64_t clock) { return Epoch{slot, clock}; }

class FastTrackBase {
 protected:
  DjitDetector djit;
  FastTrackDetector ft;
  Feeder f{&ft, &djit};

  void expect_w(uint64_t addr, uint64_t size, Epoch want) {
    for (uint64_t a = addr; a < addr + size; ++a) EXPECT_EQ(ft.write_epoch(a), want) << "W at 0x" << std::hex << a;
  }
  void expect_r_epoch(uint64_t addr, uint64_t size, Epoch want) {
    for (uint64_t a = addr; a < addr + size; ++a) {
      const auto r = ft.read_state(a);
      EXPECT_FALSE(r.shared) << "R at 0x" << std::hex << a << " should be an epoch";
      EXPECT_EQ(r.epoch, want) << "R at 0x" << std::hex << a;
    }
  }
  void expect_r_vc(uint64_t addr, uint64_t size, const VectorClock& want) {
    for (uint64_t a = addr; a < addr + size; ++a) {
      const auto r = ft.read_state(a);
      EXPECT_TRUE(r.shared) << "R at 0x" << std::hex << a << " should be a vector clock";
      EXPECT_EQ(r.clock, want) << "R at 0x" << std::hex << a;
    }
  }
  void expect_races(const std::vector<Race>& want) {
    EXPECT_EQ(ft.races(), want) << "fasttrack";
    EXPECT_EQ(djit.races(), want) << "djit";
  }
  void expect_no_races() { expect_races({}); }
  void check_agreement() { EXPECT_EQ(ft.races(), djit.races()) << "fasttrack and the golden DJIT+ disagree"; }
};

// ---------------------------------------------------------------------------
// Access rules, on a one-byte location and on an aligned 8-byte word (one
// whole shadow granule).
struct Shape {
  uint64_t size;
  const char* name;
};
void PrintTo(const Shape& s, std::ostream* os) { *os << s.name; }

class FastTrackRule : public FastTrackBase, public ::testing::TestWithParam<Shape> {
 protected:
  static constexpr uint64_t x = 0x1000;
  const uint64_t n = GetParam().size;
  void TearDown() override { check_agreement(); }
};

INSTANTIATE_TEST_SUITE_P(Shapes, FastTrackRule, ::testing::Values(Shape{1, "byte"}, Shape{8, "word8"}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_P(FastTrackRule, InitialStateIsBottom) {
  f.read(0, 0x9000, 1);  // touch another location only
  expect_w(x, n, ep(0, 0));
  expect_r_epoch(x, n, ep(0, 0));
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
}

TEST_P(FastTrackRule, ReadSameEpochLeavesStateUnchanged) {
  f.read(0, x, n, /*site=*/11);
  expect_r_epoch(x, n, ep(0, 1));
  f.read(0, x, n, /*site=*/12);  // [READ SAME EPOCH]: R_x == E_t, skip
  expect_r_epoch(x, n, ep(0, 1));
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
  // The skipped read did not replace the recorded read: the race names site 11.
  const uint64_t w = f.write(1, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 1, 0, 1, 30, 11));
}

TEST_P(FastTrackRule, ReadExclusiveByOwnThreadAtLaterEpoch) {
  f.read(0, x, n, 11);
  f.tick(0);
  f.read(0, x, n, 12);  // [READ EXCLUSIVE]: 0@1 ≼ C0, R := 0@2
  expect_r_epoch(x, n, ep(0, 2));
  const uint64_t w = f.write(1, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 1, 0, 2, 30, 12));
}

TEST_P(FastTrackRule, ReadExclusiveByOrderedThread) {
  f.read(0, x, n, 11);
  f.publish(0, 1, 1);   // C1 = ⟨1,1⟩, C0 = ⟨2,0⟩
  f.read(1, x, n, 13);  // [READ EXCLUSIVE]: 0@1 ≼ ⟨1,1⟩, R := 1@1
  expect_r_epoch(x, n, ep(1, 1));
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
  // R_x is T1's epoch alone: T0's write races with T1's read (not T0's own).
  const uint64_t w = f.write(0, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 0, 1, 1, 30, 13));
}

TEST_P(FastTrackRule, ReadShareInflatesToVectorClock) {
  f.tick(0, 2);
  f.tick(1, 4);
  f.read(0, x, n, 11);  // R = 0@3
  expect_r_epoch(x, n, ep(0, 3));
  const size_t before = ft.read_clocks_in_use();
  f.read(1, x, n, 12);  // [READ SHARE]: 0@3 ⋠ ⟨0,5⟩, R := ⟨3,5⟩
  expect_r_vc(x, n, {3, 5});
  EXPECT_EQ(ft.read_clocks_in_use(), before + 1) << "one read vector clock per whole granule or byte";
  expect_w(x, n, ep(0, 0));
  // T2 ordered after neither read: the lowest slot's read is reported.
  const uint64_t w = f.write(2, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 2, 0, 3, 30, 11));
}

TEST_P(FastTrackRule, ReadSharedUpdatesOwnEntry) {
  f.read(0, x, n, 11);
  f.read(1, x, n, 12);
  expect_r_vc(x, n, {1, 1});
  const size_t vcs = ft.read_clocks_in_use();
  f.tick(0);
  f.read(0, x, n, 14);  // [READ SHARED]: R_x(0) := 2
  expect_r_vc(x, n, {2, 1});
  f.read(1, x, n, 15);  // R_x(1) is already 1: R_x unchanged
  expect_r_vc(x, n, {2, 1});
  EXPECT_EQ(ft.read_clocks_in_use(), vcs) << "READ SHARED allocates nothing";
  // T2 knows T1's read only: races with T0's read at 2, site 14.
  f.publish(1, 2, 1);
  const uint64_t w = f.write(2, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 2, 0, 2, 30, 14));
}

// A second read in the same epoch while R_x is a vector clock must not replace
// the recorded read either: DJIT+ ([READ SAME EPOCH]) and FastTrack's epoch
// mode keep the first read's site, so [READ SHARED] skips when R_x(t) ==
// C_t(t) (FT2's read-shared same-epoch rule).
TEST_P(FastTrackRule, ReadSharedSameEpochKeepsFirstSite) {
  f.read(0, x, n, 11);
  f.read(1, x, n, 12);  // [READ SHARE]
  f.read(1, x, n, 13);  // same epoch of T1
  expect_r_vc(x, n, {1, 1});
  f.publish(0, 2, 1);  // T2 knows T0's read only
  const uint64_t w = f.write(2, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 2, 1, 1, 30, 12));
}

TEST_P(FastTrackRule, WriteSameEpochLeavesStateUnchanged) {
  f.write(0, x, n, 21);
  expect_w(x, n, ep(0, 1));
  f.write(0, x, n, 22);  // [WRITE SAME EPOCH]
  expect_w(x, n, ep(0, 1));
  const uint64_t w = f.write(1, x, n, 30);
  expect_races(races_over(x, n, w, RaceKind::WriteWrite, 1, 0, 1, 30, 21));
}

TEST_P(FastTrackRule, WriteExclusive) {
  f.read(0, x, n, 11);
  f.write(0, x, n, 21);  // [WRITE EXCLUSIVE]: R = 0@1 ≼ C0, W := 0@1; R unchanged
  expect_w(x, n, ep(0, 1));
  expect_r_epoch(x, n, ep(0, 1));
  f.publish(0, 1, 1);
  f.write(1, x, n, 23);  // [WRITE EXCLUSIVE]: W := 1@1, R stays 0@1
  expect_w(x, n, ep(1, 1));
  expect_r_epoch(x, n, ep(0, 1));
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
  expect_no_races();
  // T0 (now at 2) does not know T1's write.
  const uint64_t r = f.read(0, x, n, 31);
  expect_races(races_over(x, n, r, RaceKind::WriteRead, 0, 1, 1, 31, 23));
}

TEST_P(FastTrackRule, WriteSharedDiscardsReadVectorClock) {
  f.read(0, x, n, 11);
  f.read(1, x, n, 12);
  expect_r_vc(x, n, {1, 1});
  const size_t shared = ft.read_clocks_in_use();
  EXPECT_GE(shared, 1u);
  f.publish(0, 2, 1);
  f.publish(1, 2, 2);    // C2 = ⟨1,1,1⟩
  f.write(2, x, n, 25);  // [WRITE SHARED]: ⟨1,1⟩ ⊑ ⟨1,1,1⟩, W := 2@1, R := ⊥e
  expect_w(x, n, ep(2, 1));
  expect_r_epoch(x, n, ep(0, 0));
  EXPECT_EQ(ft.read_clocks_in_use(), shared - 1) << "the read vector clock is released";
  expect_no_races();
  // A read by T3 ordered after the write is [READ EXCLUSIVE] from ⊥e.
  f.publish(2, 3, 3);
  f.read(3, x, n, 26);
  expect_r_epoch(x, n, ep(3, 1));
  // T0 (at 2) knows neither T2's write nor T3's read.
  const uint64_t r = f.read(0, x, n, 31);
  expect_races(races_over(x, n, r, RaceKind::WriteRead, 0, 2, 1, 31, 25));
}

// --- race checks ------------------------------------------------------------

TEST_P(FastTrackRule, WriteReadRace) {
  f.tick(0, 2);
  f.write(0, x, n, 1);
  const uint64_t r = f.read(1, x, n, 2);
  expect_races(races_over(x, n, r, RaceKind::WriteRead, 1, 0, 3, 2, 1));
  expect_w(x, n, ep(0, 3));  // the racing access is not recorded
  expect_r_epoch(x, n, ep(0, 0));
}

TEST_P(FastTrackRule, WriteReadRaceInReadSharedState) {
  f.write(0, x, n, 1);
  f.release(0, 1);
  f.acquire(1, 1);
  f.acquire(2, 1);
  f.read(1, x, n, 2);
  f.read(2, x, n, 3);  // [READ SHARE]
  expect_r_vc(x, n, {0, 1, 1});
  expect_no_races();
  const uint64_t r = f.read(3, x, n, 4);  // [READ SHARED] path: W = 0@1 ⋠ C3
  expect_races(races_over(x, n, r, RaceKind::WriteRead, 3, 0, 1, 4, 1));
}

TEST_P(FastTrackRule, WriteWriteRace) {
  f.write(0, x, n, 1);
  const uint64_t w = f.write(1, x, n, 2);
  expect_races(races_over(x, n, w, RaceKind::WriteWrite, 1, 0, 1, 2, 1));
}

TEST_P(FastTrackRule, ReadWriteRaceFromEpoch) {
  f.tick(0, 4);
  f.read(0, x, n, 1);
  const uint64_t w = f.write(1, x, n, 2);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 1, 0, 5, 2, 1));
}

// When an earlier write and an earlier read both are concurrent, the write is reported.
TEST_P(FastTrackRule, WriteWriteReportedBeforeReadWrite) {
  f.write(0, x, n, 1);
  f.read(0, x, n, 2);
  const uint64_t w = f.write(1, x, n, 3);
  expect_races(races_over(x, n, w, RaceKind::WriteWrite, 1, 0, 1, 3, 1));
}

// Read VC ⟨3,5⟩ (T0 at 3, T1 at 5); the writer T2 knows one of them or none.
class ReadVcRace : public FastTrackRule {
 protected:
  void shared_reads() {
    f.tick(0, 2);
    f.tick(1, 4);
    f.read(0, x, n, 10);
    f.read(1, x, n, 11);
    expect_r_vc(x, n, {3, 5});
  }
};
INSTANTIATE_TEST_SUITE_P(Shapes, ReadVcRace, ::testing::Values(Shape{1, "byte"}, Shape{8, "word8"}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_P(ReadVcRace, ReportsTheUnorderedReaderT1) {
  shared_reads();
  f.publish(0, 2, 1);
  const uint64_t w = f.write(2, x, n, 20);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 2, 1, 5, 20, 11));
}

TEST_P(ReadVcRace, ReportsTheUnorderedReaderT0) {
  shared_reads();
  f.publish(1, 2, 1);
  const uint64_t w = f.write(2, x, n, 20);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 2, 0, 3, 20, 10));
}

TEST_P(ReadVcRace, ReportsTheLowestSlotWhenBothAreUnordered) {
  shared_reads();
  const uint64_t w = f.write(2, x, n, 20);
  expect_races(races_over(x, n, w, RaceKind::ReadWrite, 2, 0, 3, 20, 10));
}

TEST_P(ReadVcRace, NoRaceWhenOrderedAfterBoth) {
  shared_reads();
  f.publish(0, 2, 1);
  f.publish(1, 2, 2);
  f.write(2, x, n, 20);
  expect_no_races();
}

// A reader's own entry never races: T1 writes after both reads, knowing T0's.
TEST_P(ReadVcRace, OwnReadInVectorClockDoesNotRace) {
  shared_reads();
  f.publish(0, 1, 1);
  f.write(1, x, n, 20);  // [WRITE SHARED]
  expect_no_races();
  expect_w(x, n, ep(1, 5));
  expect_r_epoch(x, n, ep(0, 0));
}

// ---------------------------------------------------------------------------
// First race per location, byte precision, granules, alloc/free.
class FastTrackBytes : public FastTrackBase, public ::testing::Test {
 protected:
  void TearDown() override { check_agreement(); }
};

TEST_F(FastTrackBytes, OnlyFirstRacePerByteIsReported) {
  constexpr uint64_t X = 0x1000, Y = 0x2000;
  f.write(0, X, 2, 1);
  f.write(0, Y, 1, 1);
  const uint64_t r1 = f.write(1, X, 1, 2);  // races at X
  f.write(2, X, 1, 3);                      // X already raced: not reported, not checked
  f.read(2, X, 1, 3);
  f.write(1, X, 1, 2);
  EXPECT_EQ(ft.write_epoch(X), ep(0, 1)) << "accesses after the first race are not recorded";
  const uint64_t r2 = f.write(1, X + 1, 1, 4);  // another byte of the same granule still races
  const uint64_t r3 = f.read(2, Y, 1, 5);       // and so does another location
  expect_races({race(X, r1, RaceKind::WriteWrite, 1, 0, 1, 2, 1), race(X + 1, r2, RaceKind::WriteWrite, 1, 0, 1, 4, 1),
                race(Y, r3, RaceKind::WriteRead, 2, 0, 1, 5, 1)});
}

TEST_F(FastTrackBytes, FirstRaceOnAWholeGranuleStopsAllEightBytes) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 8);
  const uint64_t r1 = f.write(1, X, 8);
  f.write(2, X, 8);
  f.write(2, X + 2, 2);
  f.read(2, X + 7, 1);
  expect_races(races_over(X, 8, r1, RaceKind::WriteWrite, 1, 0, 1));
}

TEST_F(FastTrackBytes, AdjacentBytesDoNotRace) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 4);
  f.write(1, X + 4, 1);  // adjacent, same granule
  f.write(1, X - 1, 1);  // adjacent, previous granule
  f.read(1, X + 5, 3);
  expect_no_races();
  EXPECT_EQ(ft.write_epoch(X + 3), ep(0, 1));
  EXPECT_EQ(ft.write_epoch(X + 4), ep(1, 1));
  const uint64_t w = f.write(1, X + 3, 1);
  expect_races({race(X + 3, w, RaceKind::WriteWrite, 1, 0, 1)});
}

TEST_F(FastTrackBytes, OverlappingWritesRaceOnlyOnCommonBytes) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 4);
  const uint64_t w = f.write(1, X + 2, 4);
  expect_races(races_over(X + 2, 2, w, RaceKind::WriteWrite, 1, 0, 1));
  expect_w(X, 2, ep(0, 1));
  expect_w(X + 4, 2, ep(1, 1));
}

TEST_F(FastTrackBytes, GranuleSplitThenWholeWriteUnordered) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 8);
  const uint64_t w1 = f.write(1, X + 3, 2);  // splits the granule
  const uint64_t w2 = f.write(2, X, 8);      // bytes 3, 4 already raced
  expect_races(concat({races_over(X + 3, 2, w1, RaceKind::WriteWrite, 1, 0, 1),
                       races_over(X, 3, w2, RaceKind::WriteWrite, 2, 0, 1),
                       races_over(X + 5, 3, w2, RaceKind::WriteWrite, 2, 0, 1)}));
}

TEST_F(FastTrackBytes, GranuleSplitThenWholeWriteOrderedWithFirstOnly) {
  constexpr uint64_t X = 0x1000, m = 1, k = 2;
  f.write(0, X, 8, 1);
  f.release(0, k);  // L_k = ⟨1⟩
  f.release(0, m);  // L_m = ⟨2⟩
  f.acquire(1, m);
  f.write(1, X + 3, 2, 2);  // ordered after T0's write: no race; splits the granule
  expect_no_races();
  expect_w(X, 3, ep(0, 1));
  expect_w(X + 3, 2, ep(1, 1));
  expect_w(X + 5, 3, ep(0, 1));
  f.acquire(2, k);  // T2 knows T0's write, not T1's
  const uint64_t w = f.write(2, X, 8, 3);
  expect_races(races_over(X + 3, 2, w, RaceKind::WriteWrite, 2, 1, 1, 3, 2));
  expect_w(X, 3, ep(2, 1));
  expect_w(X + 3, 2, ep(1, 1));
  expect_w(X + 5, 3, ep(2, 1));
  EXPECT_EQ(djit.write_clock(X), (VectorClock{1, 0, 1}));
  EXPECT_EQ(djit.write_clock(X + 3), (VectorClock{1, 1, 0}));
}

// A whole write over a split granule, ordered after everything, then an
// unordered whole read: all 8 bytes race with the same write.
TEST_F(FastTrackBytes, WholeWriteOverSplitGranule) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 8);
  f.publish(0, 1, 1);
  f.write(1, X + 3, 2);
  f.read(1, X + 6, 1);
  f.publish(1, 2, 2);
  f.write(2, X, 8, 7);
  expect_no_races();
  expect_w(X, 8, ep(2, 1));
  const uint64_t r = f.read(3, X, 8, 8);
  expect_races(races_over(X, 8, r, RaceKind::WriteRead, 3, 2, 1, 8, 7));
}

TEST_F(FastTrackBytes, UnalignedEightByteAccessSpansTwoGranules) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X + 4, 8);  // X+4 .. X+11
  expect_w(X + 4, 8, ep(0, 1));
  expect_w(X, 4, ep(0, 0));
  expect_w(X + 12, 4, ep(0, 0));
  const uint64_t w = f.write(1, X, 16);
  expect_races(races_over(X + 4, 8, w, RaceKind::WriteWrite, 1, 0, 1));
}

TEST_F(FastTrackBytes, UnalignedSixteenByteAccessSpansThreeGranules) {
  constexpr uint64_t Y = 0x2000;
  f.write(0, Y + 3, 16);  // Y+3 .. Y+18
  const uint64_t r = f.read(1, Y, 24);
  expect_races(races_over(Y + 3, 16, r, RaceKind::WriteRead, 1, 0, 1));
}

// 1000 bytes from an odd address, crossing a 4 KiB shadow page boundary.
TEST_F(FastTrackBytes, ThousandByteRange) {
  constexpr uint64_t Z = 0x20000 - 0x1F3;
  f.write(0, Z, 1000, 1);
  f.publish(0, 1, 1);
  f.read(1, Z + 100, 800, 2);  // ordered
  expect_no_races();
  expect_w(Z, 1000, ep(0, 1));
  expect_w(Z - 1, 1, ep(0, 0));
  expect_w(Z + 1000, 1, ep(0, 0));
  expect_r_epoch(Z + 100, 800, ep(1, 1));
  expect_r_epoch(Z + 99, 1, ep(0, 0));
  // T2 is ordered after neither: write-write on every byte (the write is reported first).
  const uint64_t w = f.write(2, Z - 5, 1010, 3);
  expect_races(races_over(Z, 1000, w, RaceKind::WriteWrite, 2, 0, 1, 3, 1));
}

TEST_F(FastTrackBytes, ThousandByteRangeReadWriteRaces) {
  constexpr uint64_t Z = 0x20000 - 0x1F3;
  f.read(0, Z, 1000, 1);
  f.read(1, Z + 500, 1000, 2);  // concurrent reads: Z+500 .. Z+999 become read-shared
  expect_r_epoch(Z, 500, ep(0, 1));
  expect_r_vc(Z + 500, 500, {1, 1});
  expect_r_epoch(Z + 1000, 500, ep(1, 1));
  f.publish(1, 2, 1);  // T2 knows T1's reads only
  const uint64_t w = f.write(2, Z, 1500, 3);
  expect_races(races_over(Z, 1000, w, RaceKind::ReadWrite, 2, 0, 1, 3, 1));
  expect_w(Z + 1000, 500, ep(2, 1));
}

// --- alloc / free -----------------------------------------------------------

TEST_F(FastTrackBytes, FreeClearsHistory) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 8);
  f.read(0, X + 8, 8);
  f.free(0, X, 16);
  expect_w(X, 16, ep(0, 0));
  expect_r_epoch(X, 16, ep(0, 0));
  f.write(1, X, 16);  // reuse by an unordered thread: not a race
  expect_no_races();
  expect_w(X, 16, ep(1, 1));
}

TEST_F(FastTrackBytes, AllocClearsHistory) {
  constexpr uint64_t X = 0x1003;
  f.write(0, X, 13);
  f.alloc(1, X, 13);
  f.read(1, X, 13);
  f.write(2, X + 13, 1);
  expect_no_races();
}

TEST_F(FastTrackBytes, PartialFreeClearsOnlyItsBytes) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 8);
  f.free(0, X + 2, 4);
  expect_w(X + 2, 4, ep(0, 0));
  const uint64_t w = f.write(1, X, 8);
  expect_races(concat(
      {races_over(X, 2, w, RaceKind::WriteWrite, 1, 0, 1), races_over(X + 6, 2, w, RaceKind::WriteWrite, 1, 0, 1)}));
}

TEST_F(FastTrackBytes, FreeReleasesReadVectorClocks) {
  constexpr uint64_t X = 0x1000;
  f.read(0, X, 8);
  f.read(0, X + 8, 1);
  f.read(1, X, 8);
  f.read(1, X + 8, 1);
  EXPECT_EQ(ft.read_clocks_in_use(), 2u);
  f.free(0, X, 16);
  EXPECT_EQ(ft.read_clocks_in_use(), 0u);
  expect_r_epoch(X, 16, ep(0, 0));
  f.write(2, X, 16);
  expect_no_races();
}

TEST_F(FastTrackBytes, FreeRearmsFirstRace) {
  constexpr uint64_t X = 0x1000;
  f.write(0, X, 1);
  const uint64_t r1 = f.write(1, X, 1);
  f.write(0, X, 1);  // raced: not reported
  f.free(0, X, 1);
  f.write(0, X, 1);
  const uint64_t r2 = f.write(1, X, 1);
  expect_races({race(X, r1, RaceKind::WriteWrite, 1, 0, 1), race(X, r2, RaceKind::WriteWrite, 1, 0, 1)});
}

TEST_F(FastTrackBytes, FreeOverUntouchedPages) {
  constexpr uint64_t X = 0x40000;
  f.write(0, X + 0x10, 8);
  f.write(0, X + 0x3008, 8);  // three pages further
  f.free(0, X - 0x100, 0x4000);
  f.write(1, X + 0x10, 8);
  f.write(1, X + 0x3008, 8);
  expect_no_races();
}

// A free of a huge range (munmap of a reservation) visits only the shadow
// pages that were touched, so it is as cheap as the history it clears.
TEST(FastTrackShadow, HugeFreeClearsOnlyWhatWasTouched) {
  FastTrackDetector ft;
  DjitDetector golden;
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::write(0, 0x1000, 8),
      Event::write(0, 0x7fff'0000'0000, 4),
      Event::range(Op::Free, 0, 0, uint64_t{1} << 63),  // 2^51 pages of address space
      Event::write(1, 0x1000, 8),                       // no history left: no race
      Event::write(1, 0x7fff'0000'0000, 4),
      Event::write(0, 0x8000'0000'0000'0000, 8),  // beyond the freed range: keeps its history
      Event::write(1, 0x8000'0000'0000'0000, 8),  // races with the line above
  };
  for (uint64_t i = 0; i < events.size(); ++i) {
    ft.process(events[i], i);
    golden.process(events[i], i);
  }
  ASSERT_EQ(ft.races().size(), 8u);
  EXPECT_EQ(ft.races()[0].event, 7u);
  EXPECT_EQ(ft.races(), golden.races());
}

}  // namespace
}  // namespace raceaccel

namespace raceaccel {
namespace {

// ---------------------------------------------------------------------------
// Atomic history beside the cells (fasttrack_atomics.hpp): kept per byte from
// the first atomic access, dropped by a plain write ordered after all of it
// and by a free; it leaves W_x and R_x alone.
class FastTrackAtomics : public FastTrackBase, public ::testing::Test {
 protected:
  static constexpr uint64_t A = 0x4000;
  void TearDown() override { check_agreement(); }
};

TEST_F(FastTrackAtomics, AtomicAccessesKeepHistoryBesideTheCell) {
  f.store(0, A, MemoryOrder::Relaxed, 8);
  f.load(1, A, MemoryOrder::Relaxed, 4);
  EXPECT_EQ(ft.atomic_bytes(), 8u);
  expect_w(A, 8, ep(0, 0));  // atomic writes are not W_x
  expect_r_epoch(A, 8, ep(0, 0));
  EXPECT_EQ(ft.granule_parts(A), 2u);  // the 4-byte load split the granule
  EXPECT_EQ(djit.atomic_write_clock(A + 7).get(0), 1u);
  EXPECT_EQ(djit.atomic_read_clock(A + 3).get(1), 1u);
  EXPECT_EQ(djit.atomic_read_clock(A + 4).get(1), 0u);
  expect_no_races();
}

TEST_F(FastTrackAtomics, OrderedPlainWriteDropsTheHistory) {
  f.store(0, A, MemoryOrder::Release, 8);
  f.load(1, A, MemoryOrder::Acquire, 8);
  f.write(1, A, 8);
  EXPECT_EQ(ft.atomic_bytes(), 0u);
  expect_w(A, 8, ep(1, 1));
  const uint64_t l = f.load(2, A, MemoryOrder::Relaxed, 8);  // races with the plain write it names
  std::vector<Race> want;
  for (uint64_t b = A; b < A + 8; ++b) want.push_back({b, l, RaceKind::WriteRead, 2, 0, 1, 1, 0, true, false});
  expect_races(want);
}

TEST_F(FastTrackAtomics, RacingPlainWriteKeepsTheHistory) {
  f.store(0, A, MemoryOrder::Relaxed, 8);
  f.write(1, A + 2, 2);  // races with the store: those bytes stop
  EXPECT_EQ(ft.atomic_bytes(), 8u);
  f.write(1, A, 2);  // so does this
  EXPECT_EQ(ft.races().size(), 4u);
}

TEST_F(FastTrackAtomics, FreeDropsTheHistory) {
  f.rmw(0, A, MemoryOrder::AcqRel, 8);
  f.free(0, A, 4);
  EXPECT_EQ(ft.atomic_bytes(), 4u);
  f.read(1, A, 8);  // races with the RMW's write on the 4 bytes not freed
  std::vector<Race> want;
  for (uint64_t b = A + 4; b < A + 8; ++b) want.push_back({b, 2, RaceKind::WriteRead, 1, 0, 0, 1, 0, false, true});
  expect_races(want);
}

// A plain read shares R_x with a concurrent reader while the cell has
// atomic history: the flag survives READ SHARE and a split.
TEST_F(FastTrackAtomics, SharedReadsBesideAtomics) {
  f.load(0, A, MemoryOrder::Relaxed, 8);
  f.read(1, A, 8);
  f.read(2, A, 8);
  VectorClock both;
  both.set(1, 1);
  both.set(2, 1);
  expect_r_vc(A, 8, both);
  f.read(1, A + 1, 1);  // splits into bytes, each with a copy of the clock and the flag
  const uint64_t s = f.store(3, A, MemoryOrder::Relaxed, 8);  // races with reader slot 1 on every byte
  std::vector<Race> want;
  for (uint64_t b = A; b < A + 8; ++b) want.push_back({b, s, RaceKind::ReadWrite, 3, 0, 1, 1, 0, true, false});
  expect_races(want);
}

}  // namespace
}  // namespace raceaccel
