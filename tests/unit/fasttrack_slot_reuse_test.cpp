// FastTrack's reuse of joined threads' slots (detect/fasttrack_sync.hpp,
// docs/detectors.md "Slots of joined threads"): the edge cases, each fed to
// FastTrack and to the golden DJIT+ (which never reuses a slot), with the
// races both must report written out. The randomized check is
// DifferentialChurn in differential_test.cpp.
#include <gtest/gtest.h>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::Feeder;
using test::race;

constexpr uint64_t kX = 0x1000;
constexpr uint64_t kA = 0x2000;  // an atomic location
constexpr uint64_t kLock = 7;

struct SlotReuse : ::testing::Test {
  DjitDetector golden;
  FastTrackDetector fast;
  Feeder f{&golden, &fast};

  void expect_races(const std::vector<Race>& expected) {
    EXPECT_EQ(golden.races(), expected);
    EXPECT_EQ(fast.races(), expected);
  }
};

// Create, join, create, join ...: one slot serves every child.
TEST_F(SlotReuse, ChildrenCreatedAfterTheJoinOfTheLastShareItsSlot) {
  for (ThreadId child = 1; child <= 50; ++child) {
    f.fork(0, child);
    f.write(child, kX, 8);  // each ordered after the last through main
    f.join(0, child);
  }
  f.read(0, kX, 8);
  expect_races({});
  EXPECT_EQ(fast.thread_slots(), 2u);
  EXPECT_EQ(fast.slot_reuses(), 49u);
}

// A thread running all along races with a write of a joined thread; the
// report comes after the joined thread's slot went to another thread and
// must still name the writer, with the writer's own clock.
TEST_F(SlotReuse, RaceWithAnEarlierOccupantNamesIt) {
  f.fork(0, 1);  // T1 runs all along
  f.fork(0, 2);  // T2 writes x and is joined
  f.tick(2, 3);  // T2's clock: 4
  f.write(2, kX, 1, 22);
  f.join(0, 2);
  f.fork(0, 3);  // T3 takes T2's slot
  f.tick(3, 5);
  f.write(3, kX + 1, 1, 33);
  const uint64_t read = f.read(1, kX, 2, 11);
  EXPECT_EQ(fast.slot_reuses(), 1u);
  expect_races(
      {race(kX, read, RaceKind::WriteRead, 1, 2, 4, 11, 22), race(kX + 1, read, RaceKind::WriteRead, 1, 3, 6, 11, 33)});
}

// A thread not ordered after the join may not take the slot: its child
// would look ordered after the joined thread's write.
TEST_F(SlotReuse, ForkerNotOrderedAfterTheJoinGetsAFreshSlot) {
  f.fork(0, 1);
  f.fork(0, 2);
  f.write(2, kX, 1);
  f.join(0, 2);  // main joins T2; T1 knows nothing of it
  f.fork(1, 3);  // T1 forks T3
  const uint64_t read = f.read(3, kX, 1);
  EXPECT_EQ(fast.slot_reuses(), 0u);
  EXPECT_EQ(fast.thread_slots(), 4u);
  expect_races({race(kX, read, RaceKind::WriteRead, 3, 2, 1)});
}

// ... but one that learned of the join through a lock may.
TEST_F(SlotReuse, ForkerOrderedAfterTheJoinThroughALockTakesTheSlot) {
  f.fork(0, 1);
  f.fork(0, 2);
  f.write(2, kX, 1);
  f.join(0, 2);
  f.publish(0, 1, kLock);
  f.fork(1, 3);
  f.read(3, kX, 1);
  EXPECT_EQ(fast.slot_reuses(), 1u);
  expect_races({});
}

// The event model lets a joined thread act again. After its slot went to
// another thread it gets a new one, stays ordered after its own earlier
// events, and is concurrent with the thread that took its slot.
TEST_F(SlotReuse, JoinedThreadActingAgainAfterItsSlotWasTaken) {
  f.fork(0, 1);
  f.tick(1, 2);
  f.write(1, kX, 1, 11);
  f.join(0, 1);
  f.fork(0, 2);  // takes T1's slot
  EXPECT_EQ(fast.slot_reuses(), 1u);
  f.tick(1, 4);  // T1 again: no race with its own write
  const uint64_t own = f.write(1, kX, 1, 12);
  const uint64_t read = f.read(2, kX, 1, 21);  // T2 is not ordered after T1's second life
  f.join(0, 1);                                // joined again: main now knows both lives
  f.read(0, kX, 1);
  (void)own;
  // T1 had clock 3 at its join, ticked to 4 there, and 8 after four more releases.
  expect_races({race(kX, read, RaceKind::WriteRead, 2, 1, 8, 21, 12)});
}

// A relaxed store releases the thread's release-fence clock. The thread
// that took a slot starts with none: the old thread's fence must not order
// a third thread after the old thread's write.
TEST_F(SlotReuse, ChildDoesNotInheritTheOldThreadsReleaseFence) {
  f.fork(0, 1);  // T1 runs all along
  f.fork(0, 2);
  f.write(2, kX, 1);
  f.fence(2, MemoryOrder::Release);
  f.join(0, 2);
  f.fork(0, 3);  // takes T2's slot
  f.store(3, kA, MemoryOrder::Relaxed);
  f.load(1, kA, MemoryOrder::Acquire);
  const uint64_t read = f.read(1, kX, 1);
  EXPECT_EQ(fast.slot_reuses(), 1u);
  expect_races({race(kX, read, RaceKind::WriteRead, 1, 2, 1)});
}

// A thread joined while inside a barrier round keeps its slot: the round's
// bookkeeping is per slot.
TEST_F(SlotReuse, ThreadJoinedInsideABarrierRoundKeepsItsSlot) {
  f.fork(0, 1);
  f.barrier_enter(1, 99);
  f.join(0, 1);
  f.fork(0, 2);
  f.barrier_exit(2, 99);  // no enter of its own: joins the last closed round (none)
  EXPECT_EQ(fast.slot_reuses(), 0u);
  expect_races({});
}

}  // namespace
}  // namespace raceaccel
