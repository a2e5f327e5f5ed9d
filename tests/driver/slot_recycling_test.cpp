// Slot recycling (host/offload/lane_map.hpp; docs/driver.md, "Slots and
// their recycling"): a forked thread takes the engine slot of a joined
// thread whose end it knows, continuing the slot's clock. The offload
// engine must still report exactly what DJIT+ reports, with thousands of
// short-lived threads on 2, 4 and 8 slots, and races must name the right
// earlier thread and clock.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <tuple>
#include <vector>

#include "../common/race_keys.hpp"
#include "../common/short_lived_trace.hpp"
#include "backends.hpp"
#include "detect/djit.hpp"
#include "golden_comparison.hpp"
#include "offload/lane_map.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

using offload::LaneMap;

struct Shape {
  unsigned slots = 4, clock_bits = 32, read_vcs = 4;
  size_t batch_words = 4096;
  bool recycle = true;
  unsigned sync_objects = UINT32_MAX;  // 0: every synchronization as set-row
  std::string backend = "software";    // the shape above applies to the software model only
};

using Result = GoldenRun;

template <typename Source>
Result run_both(const Shape& shape, Source&& next_event) {
  driver::DeviceOptions options;
  options.backend = shape.backend;
  options.seed = 7;
  options.software_slots = shape.slots;
  options.software_clock_bits = shape.clock_bits;
  options.software_read_vcs = shape.read_vcs;
  auto device = driver::open_device(options);
  offload::OffloadOptions oo;
  oo.batch_words = shape.batch_words;
  oo.bucket_bits = 6;  // small: bucket spills too
  oo.recycle_slots = shape.recycle;
  oo.sync_objects = shape.sync_objects;
  return run_with_golden(*device, oo, std::forward<Source>(next_event));
}

Result run_trace(const Shape& shape, const std::vector<Event>& events) {
  size_t i = 0;
  return run_both(shape, [&](Event& e) {
    if (i == events.size()) return false;
    e = events[i++];
    return true;
  });
}

// ---- LaneMap on its own -------------------------------------------------------

TEST(LaneMap, AJoinedThreadsLaneGoesToAThreadForkedAfterItsJoin) {
  LaneMap lanes(1);
  lanes.created(0, nullptr);
  EXPECT_EQ(lanes.lane_of(0), 0u);
  VectorClock knows_end;
  knows_end.set(0, 5);
  knows_end.set(1, 1);
  lanes.created(1, &knows_end);  // thread 0 still runs: no lane
  EXPECT_EQ(lanes.lane_of(1), LaneMap::kNoLane);
  lanes.joined(0, 5);
  lanes.created(2, &knows_end);  // forked after the join, knows 0's end (5)
  ASSERT_EQ(lanes.lane_of(2), 0u);
  EXPECT_EQ(lanes.lane_of(0), LaneMap::kNoLane);
  EXPECT_EQ(lanes.recycled(), 1u);
  // Thread 2 continues the lane: its local time 1 is lane clock 6.
  VectorClock c;
  c.set(0, 3);
  EXPECT_EQ(lanes.lane_value(c, 0), 3u);
  c.set(0, 9);  // 0 acted after the lane moved on: capped at its end
  EXPECT_EQ(lanes.lane_value(c, 0), 5u);
  c.set(2, 4);
  EXPECT_EQ(lanes.lane_value(c, 0), 9u);
  EXPECT_EQ(lanes.thread_epoch(0, 5), (Epoch{0, 5}));
  EXPECT_EQ(lanes.thread_epoch(0, 6), (Epoch{2, 1}));
  EXPECT_EQ(lanes.thread_epoch(0, 0), std::nullopt);
  EXPECT_EQ(lanes.lane_epoch({2, 1}), (Epoch{0, 6}));  // and back
  EXPECT_EQ(lanes.lane_epoch({0, 5}), (Epoch{0, 5}));
  EXPECT_EQ(lanes.lane_epoch({0, 7}), std::nullopt);  // after 0 gave the lane away
  EXPECT_EQ(lanes.lane_epoch({1, 1}), std::nullopt);  // 1 never had a lane
  EXPECT_EQ(lanes.thread_epoch(1, 1), std::nullopt);
}

TEST(LaneMap, NoLaneWithoutKnowingTheEndOrAfterTheHolderActsAgain) {
  LaneMap lanes(2);
  lanes.created(0, nullptr);
  lanes.created(1, nullptr);
  lanes.joined(1, 4);
  VectorClock partial;
  partial.set(1, 3);  // knows 1 up to 3 only: 1's last accesses are concurrent with it
  lanes.created(2, &partial);
  EXPECT_EQ(lanes.lane_of(2), LaneMap::kNoLane);
  lanes.created(3, nullptr);  // not forked: knows nothing
  EXPECT_EQ(lanes.lane_of(3), LaneMap::kNoLane);
  lanes.acted(1);  // 1 acts after its join: its clock ran past 4, the lane stays its own
  VectorClock full;
  full.set(1, 4);
  lanes.created(4, &full);
  EXPECT_EQ(lanes.lane_of(4), LaneMap::kNoLane);
  EXPECT_EQ(lanes.lane_of(1), 1u);
  EXPECT_EQ(lanes.recycled(), 0u);
}

TEST(LaneMap, WithoutRecyclingTheFirstThreadsKeepTheLanes) {
  LaneMap lanes(1, /*recycle=*/false);
  lanes.created(0, nullptr);
  lanes.joined(0, 2);
  VectorClock c;
  c.set(0, 2);
  lanes.created(1, &c);
  EXPECT_EQ(lanes.lane_of(1), LaneMap::kNoLane);
}

// row() takes a shortcut while lane l is thread l's alone (a copy of the
// clock): on random clocks, dense and sparse, it must give every lane's
// lane_value saturated at the width, before and after a lane is recycled,
// and when threads took the lanes out of index order.
void expect_row_is_lane_values(const LaneMap& lanes, std::mt19937_64& rng, uint64_t max_clock, const char* what) {
  for (int i = 0; i < 200; ++i) {
    VectorClock c;
    const unsigned span = 1 + static_cast<unsigned>(rng() % 8);
    for (unsigned t = 0; t < span; ++t) {
      if (rng() % 3 != 0) c.set(t, rng() % (max_clock + 20));  // some beyond the width
    }
    if (rng() % 4 == 0) c.set(1000 + rng() % 50, 1 + rng() % 5);              // a far thread: sparse
    const unsigned own = static_cast<unsigned>(rng() % (lanes.lanes() + 1));  // lanes(): none
    std::vector<uint64_t> row = {99, 99};                                     // stale scratch
    const uint64_t own_value = lanes.row(c, row, own < lanes.lanes() ? own : LaneMap::kNoLane);
    ASSERT_EQ(row.size(), lanes.lanes()) << what;
    for (unsigned l = 0; l < lanes.lanes(); ++l) {
      ASSERT_EQ(row[l], std::min(lanes.lane_value(c, l), max_clock))
          << what << " lane " << l << " of " << c.to_string();
    }
    ASSERT_EQ(own_value, own < lanes.lanes() ? lanes.lane_value(c, own) : 0) << what << " " << c.to_string();
  }
}

TEST(LaneMap, RowsAreTheLaneValuesWithAndWithoutRecycling) {
  std::mt19937_64 rng(7);
  constexpr uint64_t kMax = 40;
  LaneMap lanes(4, true, kMax);
  for (uint32_t t = 0; t < 3; ++t) lanes.created(t, nullptr);  // lane 3 never used
  expect_row_is_lane_values(lanes, rng, kMax, "thread t on lane t");
  lanes.joined(1, 6);
  VectorClock knows_end;
  knows_end.set(1, 6);
  lanes.created(3, &knows_end);  // lane 3 still fresh: thread 3 takes it
  lanes.created(4, &knows_end);  // takes lane 1 from thread 1
  ASSERT_EQ(lanes.lane_of(4), 1u);
  expect_row_is_lane_values(lanes, rng, kMax, "lane 1 recycled");

  LaneMap shuffled(3, true, kMax);  // threads appear out of index order
  shuffled.created(1, nullptr);
  shuffled.created(0, nullptr);
  shuffled.created(2, nullptr);
  ASSERT_EQ(shuffled.lane_of(1), 0u);
  expect_row_is_lane_values(shuffled, rng, kMax, "thread 1 on lane 0");
}

// ---- directed traces ----------------------------------------------------------

constexpr uint64_t kX = 0x1000;

TEST(SlotRecycling, JoinedThenForkedTakesTheSlotAndOrdersCorrectly) {
  // 2 slots: main and A; B takes A's slot after main joined A. B's write is
  // ordered after A's (join then fork): no race. C, forked while B runs,
  // is slotless; its write races with B's, named with B's clock.
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1), Event::write(1, kX, 4, 11), Event::sync(Op::Join, 0, 1), Event::sync(Op::Fork, 0, 2),
      Event::write(2, kX, 4, 12),  Event::read(2, kX, 4, 13),  Event::sync(Op::Fork, 0, 3), Event::write(3, kX, 1, 14),
  };
  const Result r = run_trace({.slots = 2}, events);
  expect_same_races(r, "directed");
  ASSERT_EQ(r.golden.size(), 1u);
  EXPECT_EQ(r.golden[0].prev_tid, 2u);
  EXPECT_EQ(r.stats.slot_recycles, 1u);
  EXPECT_EQ(r.stats.slotless_threads, 1u);
}

TEST(SlotRecycling, EndNotKnownToTheForkerKeepsTheNewThreadSlotless) {
  // 3 slots: main, A, W. W joins A; main forks B without knowing A's end,
  // so B must not continue A's slot: B's write races with A's.
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1), Event::sync(Op::Fork, 0, 2), Event::write(1, kX, 4, 11),
      Event::sync(Op::Join, 2, 1), Event::sync(Op::Fork, 0, 3), Event::write(3, kX, 4, 12),
  };
  const Result r = run_trace({.slots = 3}, events);
  expect_same_races(r, "join by another thread");
  ASSERT_EQ(r.golden.size(), 4u);
  EXPECT_EQ(r.golden[0].prev_tid, 1u);
  EXPECT_EQ(r.stats.slot_recycles, 0u);
  EXPECT_EQ(r.stats.slotless_threads, 1u);
}

TEST(SlotRecycling, AThreadActingAfterItsJoinKeepsItsSlot) {
  // 2 slots. Main joins A, then A writes x (its clock ran past the join:
  // that write is concurrent with everything main does next). B, forked by
  // main, must not continue A's slot — its first slot clock would be the
  // one A's late write has — and its write of x races with A's.
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1), Event::sync(Op::Join, 0, 1), Event::write(1, kX, 1, 11),
      Event::sync(Op::Fork, 0, 2), Event::write(2, kX, 1, 12),
  };
  const Result r = run_trace({.slots = 2}, events);
  expect_same_races(r, "acting after the join");
  ASSERT_EQ(r.golden.size(), 1u);
  EXPECT_EQ(r.golden[0].prev_tid, 1u);
  EXPECT_EQ(r.stats.slot_recycles, 0u);
}

TEST(SlotRecycling, ARaceWithAnEarlierHolderOfTheSlotNamesIt) {
  // 2 slots. A writes x and is joined by main; B takes A's slot and writes
  // x too (ordered). Main, which knows A but not B, then writes x: the race
  // names B with B's own clock (1), not the slot's clock.
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1), Event::write(1, kX, 1, 11), Event::sync(Op::Join, 0, 1),
      Event::sync(Op::Fork, 0, 2), Event::write(2, kX, 1, 12), Event::write(0, kX, 1, 13),
  };
  const Result r = run_trace({.slots = 2}, events);
  expect_same_races(r, "race with the current holder");
  ASSERT_EQ(r.golden.size(), 1u);
  EXPECT_EQ(r.golden[0].prev_tid, 2u);
  EXPECT_EQ(r.golden[0].prev_clock, 1u);
  EXPECT_EQ(r.stats.slot_recycles, 1u);
  EXPECT_EQ(r.stats.causes[static_cast<size_t>(offload::EscalationCause::Slotless)], 0u);
}

TEST(SlotRecycling, ASlotlessThreadTakesAFreedSlotOnceItKnowsTheEnd) {
  // 2 slots: main and A; B, forked while A runs, is slotless. B releases M
  // (its clock ticks to 2) and writes y on the host. Main joins A and
  // releases L; B acquires L, now knows A's end and takes A's slot from its
  // local time 2. Its write of x is ordered after A's; its write of w is
  // on chip. Main's unsynchronized writes of w and y race with B's, both
  // named as B at clock 2 (one epoch, checked partly on the host, partly on
  // chip). T3 took M from B at clock 1, before B knew A's end: its write
  // of x races with B's (the last write; A's is concurrent with it too).
  constexpr uint64_t kY = 0x2000, kW = 0x3000;
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),    Event::sync(Op::Fork, 0, 2),    Event::sync(Op::Fork, 0, 3),
      Event::write(1, kX, 1, 11),     Event::sync(Op::Acquire, 2, 9), Event::sync(Op::Release, 2, 9),
      Event::write(2, kY, 1, 12),     Event::sync(Op::Join, 0, 1),    Event::sync(Op::Acquire, 0, 8),
      Event::sync(Op::Release, 0, 8), Event::sync(Op::Acquire, 2, 8), Event::write(2, kX, 1, 13),
      Event::write(2, kW, 1, 14),     Event::sync(Op::Acquire, 3, 9), Event::write(3, kX, 1, 15),
      Event::write(0, kW, 1, 16),     Event::write(0, kY, 1, 17),
  };
  const Result r = run_trace({.slots = 2}, events);
  expect_same_races(r, "late slot");
  ASSERT_EQ(r.golden.size(), 3u);
  for (const Race& race : r.golden) {
    EXPECT_EQ(race.tid, race.addr == kX ? 3u : 0u);
    EXPECT_EQ(std::tie(race.prev_tid, race.prev_clock), std::make_tuple(ThreadId{2}, uint64_t{2}));
  }
  EXPECT_EQ(r.stats.slots_taken_later, 1u);
  EXPECT_EQ(r.stats.slot_recycles, 1u);
}

TEST(SlotRecycling, AClockOutgrowingTheWidthEvictsOneThreadNotAll) {
  // 4-bit clocks. Thread 1 releases a lock 20 times: its clock (21) no
  // longer fits, so it leaves its slot; thread 2, which learns that clock
  // (saturated to 15 in its row), stays on chip. Earlier versions fell back
  // to the host for every thread.
  constexpr uint64_t kY = 0x2000, kZ = 0x3000, kA = 0x4000, kPrivate = 0x10000;
  std::vector<Event> events = {Event::sync(Op::Fork, 0, 1), Event::sync(Op::Fork, 0, 2), Event::write(1, kY, 1, 1)};
  for (int i = 0; i < 20; ++i) {
    events.push_back(Event::sync(Op::Acquire, 1, 7));
    events.push_back(Event::write(1, kA, 1, 2));
    events.push_back(Event::sync(Op::Release, 1, 7));
  }
  for (const Event& e : {Event::sync(Op::Acquire, 2, 7), Event::read(2, kA, 1, 3), Event::sync(Op::Release, 2, 7),
                         Event::write(2, kY, 1, 4), Event::write(1, kZ, 1, 5), Event::write(2, kZ, 1, 6)}) {
    events.push_back(e);
  }
  for (uint64_t i = 0; i < 50; ++i) events.push_back(Event::write(2, kPrivate + 8 * i, 8, 7));
  for (const unsigned objects : {0u, 1u}) {  // lock events as set-rows, and on the sync-object store
    const Shape shape{.slots = 4, .clock_bits = 4, .sync_objects = objects};
    const Result r = run_trace(shape, events);
    const std::string what = fmt::format("{} sync objects", objects);
    expect_same_races(r, what);
    ASSERT_EQ(r.golden.size(), 1u);
    EXPECT_EQ(r.golden[0].prev_tid, 1u);
    EXPECT_EQ(r.golden[0].prev_clock, 21u);
    EXPECT_TRUE(r.stats.fell_back);
    EXPECT_EQ(r.stats.overflow_evictions, 1u);
    EXPECT_GT(r.stats.causes[static_cast<size_t>(offload::EscalationCause::Overflow)], 0u);
    EXPECT_GE(r.stats.on_chip(), 50u) << "thread 2 must stay on chip";
  }
}

// ---- thousands of short-lived threads ---------------------------------------

struct ShortLivedCase {
  Shape shape;
  uint32_t threads, live;
};

TEST(SlotRecycling, ThousandsOfShortLivedThreadsMatchDjit) {
  const ShortLivedCase cases[] = {
      {{.slots = 2}, 1500, 3},
      {{.slots = 4}, 3000, 5},
      {{.slots = 8}, 3000, 10},
      {{.slots = 4, .read_vcs = 0, .batch_words = 64}, 2000, 4},  // no pool, tiny batches
      {{.slots = 8, .clock_bits = 9}, 3000, 6},                   // slot clocks outgrow 9 bits: fallback
  };
  uint64_t seed = 1;
  for (const ShortLivedCase& c : cases) {
    for (int round = 0; round < 3; ++round, ++seed) {
      ShortLivedOptions o;
      o.seed = seed;
      o.threads = c.threads;
      o.live = c.live;
      ShortLivedTrace trace(o);
      const Result r = run_both(c.shape, [&](Event& e) { return trace.next(e); });
      const std::string what = fmt::format("{} slots, {}-bit clocks, seed {}", c.shape.slots, c.shape.clock_bits, seed);
      expect_same_races(r, what);
      EXPECT_GT(r.golden.size(), 10u) << what;
      EXPECT_GT(r.stats.slot_recycles, c.threads / 6) << what;
      EXPECT_GT(r.stats.slotless_threads, 0u) << what;  // some ends were not known to the forker
      if (c.shape.clock_bits == 9) {
        EXPECT_TRUE(r.stats.fell_back) << what;
      }
      std::printf("%s: %zu races, %lu recycles, %lu slotless threads, %lu of %lu accesses on chip\n", what.c_str(),
                  r.golden.size(), r.stats.slot_recycles, r.stats.slotless_threads, r.stats.on_chip(),
                  r.stats.access_commands);
    }
  }
}

// On every backend: the Verilator-simulated kernel (8 slots, 16-bit
// clocks, a metadata cache, bucket spills) too.
template <typename Backend>
class SlotRecyclingOnBackends : public ::testing::Test {};
TYPED_TEST_SUITE(SlotRecyclingOnBackends, Backends, BackendNames);

TYPED_TEST(SlotRecyclingOnBackends, ShortLivedThreadsMatchDjit) {
  ShortLivedOptions o;
  o.seed = 77;
  o.threads = 2000;
  o.live = 9;
  ShortLivedTrace trace(o);
  Shape shape{.slots = 8, .clock_bits = 16};
  shape.backend = TypeParam::kName;
  const Result r = run_both(shape, [&](Event& e) { return trace.next(e); });
  expect_same_races(r, TypeParam::kName);
  EXPECT_EQ(r.stats.capabilities.slots, 8u);
  EXPECT_GT(r.golden.size(), 100u);
  EXPECT_GT(r.stats.slot_recycles, 500u);
}

// What recycling buys: the share of accesses decided on chip.
TEST(SlotRecycling, ShortLivedThreadsStayOnChip) {
  ShortLivedOptions o;
  o.seed = 99;
  o.threads = 3000;
  o.live = 6;
  o.unjoined_percent = 0;
  o.join_by_other_percent = 0;
  o.never_joined = 0;
  o.revives = 0;
  o.worker_fork_percent = 0;
  Shape recycling{.slots = 8}, fixed{.slots = 8, .recycle = false};
  ShortLivedTrace a(o), b(o);
  const Result with = run_both(recycling, [&](Event& e) { return a.next(e); });
  const Result without = run_both(fixed, [&](Event& e) { return b.next(e); });
  expect_same_races(with, "recycling");
  expect_same_races(without, "no recycling");
  const auto slotless = [](const Result& r) {
    return r.stats.causes[static_cast<size_t>(offload::EscalationCause::Slotless)];
  };
  std::printf("8 slots, 3000 short-lived threads: on chip %lu of %lu with recycling, %lu without\n",
              with.stats.on_chip(), with.stats.access_commands, without.stats.on_chip());
  EXPECT_EQ(slotless(with), 0u);
  EXPECT_GT(slotless(without), without.stats.access_commands * 8 / 10);
}

}  // namespace
}  // namespace raceaccel::test
