// Memory of clocks with many threads (issue 14, item 3): vector clocks hold
// their non-zero entries only, and joined threads' clocks are retired in
// compact form, exactly (a retired thread that acts again is restored).
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "../common/race_keys.hpp"
#include "core/retired_clocks.hpp"
#include "core/vector_clock.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using Model = std::map<uint32_t, uint64_t>;  // the obviously-right clock: non-zero entries

void expect_same(const VectorClock& c, const Model& m, uint32_t span) {
  for (uint32_t s = 0; s < span; ++s) {
    auto it = m.find(s);
    ASSERT_EQ(c.get(s), it == m.end() ? 0 : it->second) << "slot " << s;
  }
  EXPECT_EQ(c.nonzero(), m.size());
}

TEST(VectorClockForms, RandomOperationsMatchAMapInBothForms) {
  std::mt19937_64 rng(14);
  for (int round = 0; round < 200; ++round) {
    const uint32_t span = round % 2 == 0 ? 24 : 4000;  // small spans stay dense, large ones go sparse
    auto slot = [&] { return static_cast<uint32_t>(rng() % span); };
    VectorClock a, b;
    Model ma, mb;
    for (int op = 0; op < 60; ++op) {
      const uint32_t s = slot();
      const uint64_t v = rng() % 4 == 0 ? 0 : 1 + rng() % 100;
      switch (rng() % 4) {
        case 0:
          a.set(s, v);
          if (v == 0)
            ma.erase(s);
          else
            ma[s] = v;
          break;
        case 1:
          b.set(s, v);
          if (v == 0)
            mb.erase(s);
          else
            mb[s] = v;
          break;
        case 2:
          a.join(b);
          for (auto [k, x] : mb) ma[k] = std::max(ma[k], x);
          break;
        default: {
          bool leq = true;
          for (auto [k, x] : ma) leq = leq && x <= (mb.count(k) ? mb[k] : 0);
          EXPECT_EQ(a.leq(b), leq);
          EXPECT_EQ(a == b, ma == mb);
        }
      }
      expect_same(a, ma, span);
      expect_same(b, mb, span);
    }
  }
}

TEST(VectorClockForms, FewEntriesAtHighSlotsStaySmall) {
  VectorClock c;
  c.set(100'000, 1);
  c.set(0, 7);
  EXPECT_FALSE(c.is_dense());
  EXPECT_LT(c.heap_bytes(), 128u);
  EXPECT_EQ(c.size(), 100'001u);
  EXPECT_EQ(c.get(100'000), 1u);
  VectorClock d;
  for (uint32_t s = 0; s < 1000; ++s) d.set(s, s + 1);
  EXPECT_TRUE(d.is_dense());
  c.join(d);  // 1001 non-zero of 100,001: still sparse, exact
  EXPECT_EQ(c.get(999), 1000u);
  EXPECT_EQ(c.get(0), 7u);
  EXPECT_EQ(c.nonzero(), 1001u);
}

TEST(RetiredClocks, RestoresEveryRetiredClockExactly) {
  std::mt19937_64 rng(9);
  RetiredClocks retired;
  std::vector<std::pair<uint32_t, VectorClock>> kept;
  VectorClock evolving;
  for (int i = 0; i < 300; ++i) {
    for (int k = 0; k < 3; ++k) evolving.set(rng() % 500, rng() % 5);  // zeros too
    kept.emplace_back(retired.retire(evolving), evolving);
  }
  for (const auto& [id, clock] : kept) EXPECT_EQ(retired.restore(id), clock) << id;
}

// Thread patterns of the issue, with n threads; every thread writes its own
// byte and reads a shared one.
std::vector<Event> threads_pattern(const std::string& kind, uint32_t n) {
  std::vector<Event> ev;
  auto body = [&](ThreadId k) {
    ev.push_back(Event::write(k, 0x10000 + k, 1));
    ev.push_back(Event::read(k, 0x100, 1));
  };
  if (kind == "sequential") {
    for (ThreadId k = 1; k <= n; ++k) {
      ev.push_back(Event::sync(Op::Fork, 0, k));
      body(k);
      ev.push_back(Event::sync(Op::Join, 0, k));
    }
  } else if (kind == "all-at-once") {
    for (ThreadId k = 1; k <= n; ++k) ev.push_back(Event::sync(Op::Fork, 0, k));
    for (ThreadId k = 1; k <= n; ++k) body(k);
    for (ThreadId k = 1; k <= n; ++k) ev.push_back(Event::sync(Op::Join, 0, k));
  } else {  // never forked or joined
    for (ThreadId k = 1; k <= n; ++k) body(k);
  }
  ev.push_back(Event::write(0, 0x100, 1));
  return ev;
}

class ThreadClockMemory : public ::testing::TestWithParam<const char*> {};

// 3,000 threads: quadratic clocks would take 3000²/2 × 8 B = 36 MB; linear
// ones take well under 1 MB.
TEST_P(ThreadClockMemory, GrowsLinearlyWithThreadsSeen) {
  const uint32_t n = 3000;
  DjitDetector djit;
  FastTrackDetector ft;
  uint64_t i = 0;
  for (const Event& e : threads_pattern(GetParam(), n)) {
    djit.process(e, i);
    ft.process(e, i);
    ++i;
  }
  EXPECT_LT(djit.sync().thread_clock_bytes(), 1'000'000u);
  EXPECT_LT(ft.thread_clock_bytes(), 1'000'000u);
  EXPECT_EQ(test::race_keys(djit.races()), test::race_keys(ft.races()));
  // Only the never-forked threads' reads race with the final write.
  EXPECT_EQ(ft.races().size(), std::string(GetParam()) == "unsynchronized" ? 1u : 0u);
}

INSTANTIATE_TEST_SUITE_P(Patterns, ThreadClockMemory, ::testing::Values("sequential", "all-at-once", "unsynchronized"));

// A joined thread that acts again, is joined twice and is forked again: its
// restored clock is exactly the one it had, so both detectors find the races
// the event model defines.
TEST(RetiredThreads, ActingAfterJoinIsCheckedWithTheRestoredClock) {
  const std::vector<Event> ev = {
      Event::sync(Op::Fork, 0, 1), Event::write(1, 0x40, 1), Event::sync(Op::Join, 0, 1),
      Event::write(0, 0x40, 1),    Event::write(1, 0x41, 1),  // 4: T1 after its join, no conflict
      Event::write(1, 0x40, 1),                               // 5: races with T0's write at 3
      Event::sync(Op::Join, 2, 1), Event::read(2, 0x41, 1),   // second join: ordered after T1's writes
      Event::read(2, 0x40, 1),                                // 8: the byte raced at 5: no longer checked
      Event::sync(Op::Fork, 0, 1), Event::write(1, 0x42, 1), Event::write(0, 0x42, 1),  // 11: races with 10
  };
  DjitDetector djit;
  FastTrackDetector ft;
  for (uint64_t i = 0; i < ev.size(); ++i) {
    djit.process(ev[i], i);
    ft.process(ev[i], i);
  }
  EXPECT_EQ(test::race_keys(djit.races()), test::race_keys(ft.races()));
  ASSERT_EQ(ft.races().size(), 2u);
  EXPECT_EQ(ft.races()[0].event, 5u);
  EXPECT_EQ(ft.races()[0].prev_tid, 0u);
  EXPECT_EQ(ft.races()[1].event, 11u);
  EXPECT_EQ(ft.races()[1].prev_tid, 1u);
}

}  // namespace
}  // namespace raceaccel
