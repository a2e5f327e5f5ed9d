// The worked examples of the reading material, replayed step by step on both
// detectors with the expected clocks, epochs and vector clocks after every
// step (docs: /work/shared/reading/slimstate-fasttrack-carisma.md §1.4, §2.4;
// wood-radish-lard-fib.md §2.10):
//   T-FT1  FastTrack CACM Fig 1/2 (rel/acq edge, WRITE EXCLUSIVE, DJIT+ parity)
//   T-FT2  FastTrack CACM Fig 5 (adaptive read history, fork/join)
//   T-SS1  SlimState Fig 1 (write-write race through an epoch)
//   T-SS2  SlimState Fig 2 (array of 4 elements, FastTrack's S column)
//   RADISH Table 3.1 in canonical vector clocks, with negative variants (a), (b)
// The papers' initial states are reached by driving the detectors with events
// (see trace_builder.hpp). Every example runs on several shapes of the
// location x: one byte, an aligned 4-byte and 8-byte word, and an unaligned
// 8-byte word that spans two granules of FastTrack's shadow memory.
#include <gtest/gtest.h>

#include <string>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::Feeder;
using test::race;
using test::races_over;

Epoch ep(uint32_t slot, uint64_t clock) { return Epoch{slot, clock}; }

struct Loc {
  uint64_t addr;
  uint64_t size;
  std::string name;
};
void PrintTo(const Loc& l, std::ostream* os) { *os << l.name; }

// FastTrack's R_x as the examples write it: an epoch, or a vector clock.
struct FtRead {
  bool shared;
  Epoch epoch;
  VectorClock clock;
};
FtRead rd_epoch(uint32_t slot, uint64_t clock) { return {false, ep(slot, clock), {}}; }
FtRead rd_vc(VectorClock vc) { return {true, {}, std::move(vc)}; }

// Both detectors fed the same events.
struct Both {
  DjitDetector djit;
  FastTrackDetector ft;
  Feeder f{&djit, &ft};

  void expect_clock(ThreadId t, const VectorClock& want) {
    EXPECT_EQ(djit.thread_clock(t), want) << "djit C" << t;
    EXPECT_EQ(ft.thread_clock(t), want) << "fasttrack C" << t;
  }
  void expect_lock(uint64_t lock, const VectorClock& want) {
    EXPECT_EQ(djit.sync().lock_clock(lock), want) << "djit L_" << lock;
  }
  // Every byte of [addr, addr+size) has the same history.
  void expect_ft_write(uint64_t addr, uint64_t size, Epoch want) {
    for (uint64_t a = addr; a < addr + size; ++a)
      EXPECT_EQ(ft.write_epoch(a), want) << "fasttrack W at 0x" << std::hex << a;
  }
  void expect_ft_read(uint64_t addr, uint64_t size, const FtRead& want) {
    for (uint64_t a = addr; a < addr + size; ++a) {
      const auto r = ft.read_state(a);
      EXPECT_EQ(r.shared, want.shared) << "fasttrack R at 0x" << std::hex << a;
      if (want.shared) {
        EXPECT_EQ(r.clock, want.clock) << "fasttrack R at 0x" << std::hex << a;
      } else {
        EXPECT_EQ(r.epoch, want.epoch) << "fasttrack R at 0x" << std::hex << a;
      }
    }
  }
  void expect_djit_write(uint64_t addr, uint64_t size, const VectorClock& want) {
    for (uint64_t a = addr; a < addr + size; ++a)
      EXPECT_EQ(djit.write_clock(a), want) << "djit W at 0x" << std::hex << a;
  }
  void expect_djit_read(uint64_t addr, uint64_t size, const VectorClock& want) {
    for (uint64_t a = addr; a < addr + size; ++a)
      EXPECT_EQ(djit.read_clock(a), want) << "djit R at 0x" << std::hex << a;
  }
  void expect_no_races() {
    EXPECT_TRUE(djit.races().empty()) << ::testing::PrintToString(djit.races());
    EXPECT_TRUE(ft.races().empty()) << ::testing::PrintToString(ft.races());
  }
};

class WorkedExample : public ::testing::TestWithParam<Loc> {};

INSTANTIATE_TEST_SUITE_P(Locations, WorkedExample,
                         ::testing::Values(Loc{0x1000, 1, "byte"}, Loc{0x1000, 4, "word4"}, Loc{0x1000, 8, "word8"},
                                           Loc{0x1004, 8, "unaligned8"}),
                         [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// T-FT1: FastTrack CACM Fig 1 (DJIT+) and Fig 2 (FastTrack).
// Initial C0=⟨4,0⟩, C1=⟨0,8⟩, L_m=⟨0,0⟩, W_x=⊥e (FT) / ⟨0,0⟩ (DJIT+).
TEST_P(WorkedExample, FastTrackFig2) {
  const auto [x, n, name] = GetParam();
  constexpr uint64_t m = 1;
  Both b;
  b.f.tick(0, 3);  // C0 = ⟨4,0⟩ (T0 appears first: slot 0)
  b.f.tick(1, 7);  // C1 = ⟨0,8⟩
  b.expect_clock(0, {4, 0});
  b.expect_clock(1, {0, 8});
  b.expect_lock(m, {0, 0});
  b.expect_ft_write(x, n, ep(0, 0));
  b.expect_djit_write(x, n, {0, 0});

  struct Row {
    Event ev;
    VectorClock c0, c1, lm;
    Epoch ft_w;
    VectorClock djit_w;
  };
  const Row rows[] = {
      {Event::write(0, x, n), {4, 0}, {0, 8}, {0, 0}, ep(0, 4), {4, 0}},
      {Event::sync(Op::Release, 0, m), {5, 0}, {0, 8}, {4, 0}, ep(0, 4), {4, 0}},
      {Event::sync(Op::Acquire, 1, m), {5, 0}, {4, 8}, {4, 0}, ep(0, 4), {4, 0}},
      {Event::write(1, x, n), {5, 0}, {4, 8}, {4, 0}, ep(1, 8), {4, 8}},  // [WRITE EXCLUSIVE] 0@4 ≼ ⟨4,8⟩
  };
  int step = 0;
  for (const Row& row : rows) {
    SCOPED_TRACE("T-FT1 row " + std::to_string(++step));
    b.f.feed(row.ev);
    b.expect_clock(0, row.c0);
    b.expect_clock(1, row.c1);
    b.expect_lock(m, row.lm);
    b.expect_ft_write(x, n, row.ft_w);
    b.expect_djit_write(x, n, row.djit_w);
    b.expect_ft_read(x, n, rd_epoch(0, 0));
  }
  b.expect_no_races();
}

// The same trace without the release/acquire: T1's write races with T0's at 0@4.
TEST_P(WorkedExample, FastTrackFig2WithoutLockRaces) {
  const auto [x, n, name] = GetParam();
  Both b;
  b.f.tick(0, 3);
  b.f.tick(1, 7);
  b.f.write(0, x, n);
  const uint64_t racy = b.f.write(1, x, n);
  const auto want = races_over(x, n, racy, RaceKind::WriteWrite, 1, 0, 4);
  EXPECT_EQ(b.djit.races(), want);
  EXPECT_EQ(b.ft.races(), want);
}

// ---------------------------------------------------------------------------
// T-FT2: FastTrack CACM Fig 5, adaptive read history.
// Initial C0=⟨7,0⟩, C1=⟨0,1⟩, W_x=R_x=⊥e. Expected R_x: ⊥e → 1@1 → VC⟨8,1⟩ → ⊥e → 0@8.
TEST_P(WorkedExample, FastTrackFig5) {
  const auto [x, n, name] = GetParam();
  Both b;
  b.f.tick(0, 6);  // C0 = ⟨7,0⟩
  b.expect_clock(0, {7, 0});
  b.expect_clock(1, {0, 1});  // T1 would be created here anyway: slot 1, C1 = inc_1(⊥)
  const size_t vcs_before = b.ft.read_clocks_in_use();

  struct Row {
    Event ev;
    VectorClock c0, c1;
    Epoch ft_w;
    FtRead ft_r;
    VectorClock djit_w, djit_r;
    const char* rule;
  };
  const Row rows[] = {
      {Event::write(0, x, n), {7, 0}, {0, 1}, ep(0, 7), rd_epoch(0, 0), {7, 0}, {0, 0}, "WRITE EXCLUSIVE"},
      {Event::sync(Op::Fork, 0, 1), {8, 0}, {7, 1}, ep(0, 7), rd_epoch(0, 0), {7, 0}, {0, 0}, "FORK"},
      {Event::read(1, x, n), {8, 0}, {7, 1}, ep(0, 7), rd_epoch(1, 1), {7, 0}, {0, 1}, "READ EXCLUSIVE"},
      {Event::read(0, x, n), {8, 0}, {7, 1}, ep(0, 7), rd_vc({8, 1}), {7, 0}, {8, 1}, "READ SHARE"},
      {Event::read(1, x, n), {8, 0}, {7, 1}, ep(0, 7), rd_vc({8, 1}), {7, 0}, {8, 1}, "READ SHARED"},
      {Event::sync(Op::Join, 0, 1), {8, 1}, {7, 2}, ep(0, 7), rd_vc({8, 1}), {7, 0}, {8, 1}, "JOIN"},
      // [WRITE SHARED]: ⟨8,1⟩ ⊑ ⟨8,1⟩, W := 0@8, R := ⊥e. DJIT+ keeps R_x (no zeroing).
      {Event::write(0, x, n), {8, 1}, {7, 2}, ep(0, 8), rd_epoch(0, 0), {8, 0}, {8, 1}, "WRITE SHARED"},
      // FT: [READ EXCLUSIVE]; DJIT+: [READ SAME EPOCH] (R_x(0) is already 8).
      {Event::read(0, x, n), {8, 1}, {7, 2}, ep(0, 8), rd_epoch(0, 8), {8, 0}, {8, 1}, "READ EXCLUSIVE"},
  };
  int step = 0;
  for (const Row& row : rows) {
    SCOPED_TRACE("T-FT2 row " + std::to_string(++step) + " [" + row.rule + "]");
    b.f.feed(row.ev);
    b.expect_clock(0, row.c0);
    b.expect_clock(1, row.c1);
    b.expect_ft_write(x, n, row.ft_w);
    b.expect_ft_read(x, n, row.ft_r);
    b.expect_djit_write(x, n, row.djit_w);
    b.expect_djit_read(x, n, row.djit_r);
    if (row.ft_r.shared) {
      EXPECT_GT(b.ft.read_clocks_in_use(), vcs_before) << "READ SHARE allocates a read vector clock";
    } else {
      EXPECT_EQ(b.ft.read_clocks_in_use(), vcs_before) << "no read vector clock while R_x is an epoch";
    }
  }
  b.expect_no_races();
}

// T-FT2 without the join: T0's write after the concurrent read by T1 is a
// read-write race with T1's read at 1@1 (the read vector clock entry of T1).
TEST_P(WorkedExample, FastTrackFig5WithoutJoinRaces) {
  const auto [x, n, name] = GetParam();
  Both b;
  b.f.tick(0, 6);
  b.f.write(0, x, n);
  b.f.fork(0, 1);
  b.f.read(1, x, n);
  b.f.read(0, x, n);
  const uint64_t racy = b.f.write(0, x, n);
  const auto want = races_over(x, n, racy, RaceKind::ReadWrite, 0, 1, 1);
  EXPECT_EQ(b.djit.races(), want);
  EXPECT_EQ(b.ft.races(), want);
}

// ---------------------------------------------------------------------------
// T-SS1: SlimState Fig 1. A=0, B=1; C_A=⟨4,0⟩, C_B=⟨0,8⟩, S_x=⊥e.
// FastTrack reports at the 5th event (A's access), against B@8.
void run_tss1(const Loc& loc, bool last_is_read) {
  const uint64_t x = loc.addr, n = loc.size;
  constexpr uint64_t m = 1;
  Both b;
  b.f.tick(0, 3);
  b.f.tick(1, 7);
  b.expect_clock(0, {4, 0});
  b.expect_clock(1, {0, 8});

  b.f.write(0, x, n);  // 1: ⊥e ≼ C_A, S_x = A@4
  b.expect_ft_write(x, n, ep(0, 4));
  b.expect_djit_write(x, n, {4, 0});
  b.f.release(0, m);  // 2
  b.expect_lock(m, {4, 0});
  b.expect_clock(0, {5, 0});
  b.f.acquire(1, m);  // 3
  b.expect_clock(1, {4, 8});
  b.f.write(1, x, n);  // 4: A@4 ≼ ⟨4,8⟩, S_x = B@8
  b.expect_ft_write(x, n, ep(1, 8));
  b.expect_djit_write(x, n, {4, 8});
  b.expect_no_races();

  // 5: B@8 ≼ ⟨5,0⟩? 8 ≤ 0 fails: RACE.
  const uint64_t fifth = last_is_read ? b.f.read(0, x, n) : b.f.write(0, x, n);
  const auto want =
      races_over(x, n, fifth, last_is_read ? RaceKind::WriteRead : RaceKind::WriteWrite, /*tid=*/0, /*prev=*/1, 8);
  EXPECT_EQ(b.djit.races(), want);
  EXPECT_EQ(b.ft.races(), want);
  EXPECT_EQ(fifth, b.f.next_index() - 1);
}

TEST_P(WorkedExample, SlimStateFig1WriteWrite) { run_tss1(GetParam(), false); }
TEST_P(WorkedExample, SlimStateFig1WriteRead) { run_tss1(GetParam(), true); }

// ---------------------------------------------------------------------------
// T-SS2: SlimState Fig 2. A=0, B=1, lock m, array a[0..3] (all accesses are
// writes). Initial C_A=⟨5,3⟩, C_B=⟨0,8⟩, L_m=⟨0,0⟩, FT S=[B@2,B@2,B@2,B@2].
// The element shape comes from the parameter: its size is the element size,
// and the array starts at its address.
TEST_P(WorkedExample, SlimStateFig2) {
  const auto [base, esize, name] = GetParam();
  constexpr uint64_t m = 1, k = 2;
  auto a = [&, base = base, esize = esize](int i) { return base + static_cast<uint64_t>(i) * esize; };
  Both b;

  // Prefix: A to clock 5; B writes a[0..3] at B@2; B releases k at 3; B to 8; A acquires k.
  b.f.tick(0, 4);
  b.f.tick(1, 1);
  for (int i = 0; i < 4; ++i) b.f.write(1, a(i), esize);
  b.f.tick(1, 1);     // B at 3
  b.f.release(1, k);  // L_k = ⟨0,3⟩, B at 4
  b.f.tick(1, 4);     // B at 8
  b.f.acquire(0, k);  // C_A = ⟨5,3⟩
  b.expect_clock(0, {5, 3});
  b.expect_clock(1, {0, 8});
  b.expect_lock(m, {0, 0});

  // Per row: clocks, L_m, FT S per element, DJIT W per element.
  struct Row {
    Event ev;
    VectorClock ca, cb, lm;
    Epoch s[4];
    VectorClock w[4];
  };
  const Epoch A5 = ep(0, 5), A6 = ep(0, 6), B2 = ep(1, 2), B8 = ep(1, 8);
  const VectorClock B2w{0, 2}, A5w{5, 2}, B8w{5, 8}, A6w{6, 8};
  const Row rows[] = {
      {Event::sync(Op::Acquire, 0, m), {5, 3}, {0, 8}, {0, 0}, {B2, B2, B2, B2}, {B2w, B2w, B2w, B2w}},  // 1
      {Event::write(0, a(0), esize), {5, 3}, {0, 8}, {0, 0}, {A5, B2, B2, B2}, {A5w, B2w, B2w, B2w}},    // 2
      {Event::write(0, a(1), esize), {5, 3}, {0, 8}, {0, 0}, {A5, A5, B2, B2}, {A5w, A5w, B2w, B2w}},    // 3
      {Event::write(0, a(2), esize), {5, 3}, {0, 8}, {0, 0}, {A5, A5, A5, B2}, {A5w, A5w, A5w, B2w}},    // 4
      {Event::write(0, a(3), esize), {5, 3}, {0, 8}, {0, 0}, {A5, A5, A5, A5}, {A5w, A5w, A5w, A5w}},    // 5
      {Event::sync(Op::Release, 0, m), {6, 3}, {0, 8}, {5, 3}, {A5, A5, A5, A5}, {A5w, A5w, A5w, A5w}},  // 6
      {Event::sync(Op::Acquire, 1, m), {6, 3}, {5, 8}, {5, 3}, {A5, A5, A5, A5}, {A5w, A5w, A5w, A5w}},  // 7
      {Event::write(1, a(0), esize), {6, 3}, {5, 8}, {5, 3}, {B8, A5, A5, A5}, {B8w, A5w, A5w, A5w}},    // 8
      {Event::write(1, a(1), esize), {6, 3}, {5, 8}, {5, 3}, {B8, B8, A5, A5}, {B8w, B8w, A5w, A5w}},    // 9
      {Event::write(1, a(2), esize), {6, 3}, {5, 8}, {5, 3}, {B8, B8, B8, A5}, {B8w, B8w, B8w, A5w}},    // 10
      {Event::write(1, a(3), esize), {6, 3}, {5, 8}, {5, 3}, {B8, B8, B8, B8}, {B8w, B8w, B8w, B8w}},    // 11
      {Event::sync(Op::Release, 1, m), {6, 3}, {5, 9}, {5, 8}, {B8, B8, B8, B8}, {B8w, B8w, B8w, B8w}},  // 12
      {Event::sync(Op::Acquire, 0, m), {6, 8}, {5, 9}, {5, 8}, {B8, B8, B8, B8}, {B8w, B8w, B8w, B8w}},  // 13
      {Event::write(0, a(0), esize), {6, 8}, {5, 9}, {5, 8}, {A6, B8, B8, B8}, {A6w, B8w, B8w, B8w}},    // 14
      {Event::write(0, a(1), esize), {6, 8}, {5, 9}, {5, 8}, {A6, A6, B8, B8}, {A6w, A6w, B8w, B8w}},    // 15
      // 16: the figure shows the clocks at commit time; after [RELEASE] they are L_m=⟨6,8⟩, C_A=⟨7,8⟩.
      {Event::sync(Op::Release, 0, m), {7, 8}, {5, 9}, {6, 8}, {A6, A6, B8, B8}, {A6w, A6w, B8w, B8w}},
  };
  int step = 0;
  for (const Row& row : rows) {
    SCOPED_TRACE("T-SS2 row " + std::to_string(++step));
    b.f.feed(row.ev);
    b.expect_clock(0, row.ca);
    b.expect_clock(1, row.cb);
    b.expect_lock(m, row.lm);
    for (int i = 0; i < 4; ++i) {
      SCOPED_TRACE("a[" + std::to_string(i) + "]");
      b.expect_ft_write(a(i), esize, row.s[i]);
      b.expect_djit_write(a(i), esize, row.w[i]);
    }
  }
  b.expect_no_races();
}

// T-SS2 with B's acquire of m (row 7) left out: B's first write (row 8)
// races with A's write of a[0] at A@5, and each of B's writes races with A's.
TEST_P(WorkedExample, SlimStateFig2WithoutAcquireRaces) {
  const auto [base, esize, name] = GetParam();
  constexpr uint64_t m = 1, k = 2;
  auto a = [&, base = base, esize = esize](int i) { return base + static_cast<uint64_t>(i) * esize; };
  Both b;
  b.f.tick(0, 4);
  b.f.tick(1, 1);
  for (int i = 0; i < 4; ++i) b.f.write(1, a(i), esize);
  b.f.tick(1, 1);
  b.f.release(1, k);
  b.f.tick(1, 4);
  b.f.acquire(0, k);
  b.f.acquire(0, m);
  for (int i = 0; i < 4; ++i) b.f.write(0, a(i), esize);
  b.f.release(0, m);
  std::vector<Race> want;
  for (int i = 0; i < 4; ++i) {
    const uint64_t idx = b.f.write(1, a(i), esize);
    const auto r = races_over(a(i), esize, idx, RaceKind::WriteWrite, 1, 0, 5);
    want.insert(want.end(), r.begin(), r.end());
  }
  EXPECT_EQ(b.djit.races(), want);
  EXPECT_EQ(b.ft.races(), want);
}

// ---------------------------------------------------------------------------
// RADISH Table 3.1 (Wood §3.2.7) in canonical vector clocks over [T0, T1].
// Initial: R_x = ⟨7,0⟩, W_x = ⟨2,0⟩ (T0 wrote x at 2, read it at 7),
// C_T0 = ⟨9,4⟩, C_T1 = ⟨6,5⟩. Our DJIT+ does no zeroing.
constexpr uint64_t kRadishL = 1, kRadishA = 2, kRadishB = 3;

void radish_prefix(Both& b, uint64_t x, uint64_t n) {
  b.f.tick(0, 1);            // T0 at 2 (slot 0)
  b.f.write(0, x, n);        // W_x = 0@2
  b.f.tick(0, 4);            // T0 at 6
  b.f.release(0, kRadishA);  // L_a = ⟨6,0⟩, T0 at 7
  b.f.read(0, x, n);         // R_x = 0@7
  b.f.tick(0, 2);            // T0 at 9
  b.f.tick(1, 3);            // T1 (slot 1) at 4
  b.f.release(1, kRadishB);  // L_b = ⟨0,4⟩, T1 at 5
  b.f.acquire(1, kRadishA);  // C_T1 = ⟨6,5⟩
  b.f.acquire(0, kRadishB);  // C_T0 = ⟨9,4⟩
}

TEST_P(WorkedExample, RadishTable31) {
  const auto [x, n, name] = GetParam();
  Both b;
  radish_prefix(b, x, n);
  {
    SCOPED_TRACE("RADISH step 0 (initial)");
    b.expect_clock(0, {9, 4});
    b.expect_clock(1, {6, 5});
    b.expect_djit_read(x, n, {7, 0});
    b.expect_djit_write(x, n, {2, 0});
    b.expect_ft_read(x, n, rd_epoch(0, 7));
    b.expect_ft_write(x, n, ep(0, 2));
  }
  {
    SCOPED_TRACE("RADISH step 1: p0 read x (ok)");
    b.f.read(0, x, n);
    b.expect_djit_read(x, n, {9, 0});
    b.expect_ft_read(x, n, rd_epoch(0, 9));  // [READ EXCLUSIVE]
    b.expect_no_races();
  }
  {
    SCOPED_TRACE("RADISH step 2: p1 read x (ok)");
    b.f.read(1, x, n);
    b.expect_djit_read(x, n, {9, 5});
    b.expect_ft_read(x, n, rd_vc({9, 5}));  // [READ SHARE]: 0@9 ⋠ ⟨6,5⟩
    b.expect_no_races();
  }
  {
    SCOPED_TRACE("RADISH step 3: p0 release l");
    b.f.release(0, kRadishL);
    b.expect_lock(kRadishL, {9, 4});
    b.expect_clock(0, {10, 4});
  }
  {
    SCOPED_TRACE("RADISH step 4: p1 acquire l");
    b.f.acquire(1, kRadishL);
    b.expect_clock(1, {9, 5});
  }
  {
    SCOPED_TRACE("RADISH step 5: p1 write x (ok)");
    b.f.write(1, x, n);
    b.expect_djit_write(x, n, {2, 5});  // W_x = (2,5,0): no zeroing
    b.expect_djit_read(x, n, {9, 5});
    b.expect_ft_write(x, n, ep(1, 5));  // [WRITE SHARED]: ⟨9,5⟩ ⊑ ⟨9,5⟩
    b.expect_ft_read(x, n, rd_epoch(0, 0));
    b.expect_no_races();
  }
  b.expect_clock(0, {10, 4});
  b.expect_clock(1, {9, 5});
}

// (a) p0 writes right after step 2: T1's read at 5 > C_T0(T1) = 4.
TEST_P(WorkedExample, RadishTable31VariantA) {
  const auto [x, n, name] = GetParam();
  Both b;
  radish_prefix(b, x, n);
  b.f.read(0, x, n);
  b.f.read(1, x, n);
  const uint64_t racy = b.f.write(0, x, n);
  const auto want = races_over(x, n, racy, RaceKind::ReadWrite, 0, 1, 5);
  EXPECT_EQ(b.djit.races(), want);
  EXPECT_EQ(b.ft.races(), want);
}

// (b) Step 4 (the acquire) skipped: R_x(T0) = 9 > C_T1(T0) = 6.
TEST_P(WorkedExample, RadishTable31VariantB) {
  const auto [x, n, name] = GetParam();
  Both b;
  radish_prefix(b, x, n);
  b.f.read(0, x, n);
  b.f.read(1, x, n);
  b.f.release(0, kRadishL);
  const uint64_t racy = b.f.write(1, x, n);
  const auto want = races_over(x, n, racy, RaceKind::ReadWrite, 1, 0, 9);
  EXPECT_EQ(b.djit.races(), want);
  EXPECT_EQ(b.ft.races(), want);
}

}  // namespace
}  // namespace raceaccel
