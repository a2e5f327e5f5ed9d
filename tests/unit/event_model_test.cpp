// The happens-before of every synchronization kind of the event model
// (core/event.hpp; ReferenceSyncState is its executable form), checked on
// both detectors. Each ordering comes with a race/no-race pair: the ordered
// trace reports nothing, and a minimal change that removes the edge reports
// exactly the expected race.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::concat;
using test::Feeder;
using test::races_over;

constexpr uint64_t X = 0x1000, Y = 0x2000, Z = 0x3000;  // data (4-byte accesses)
constexpr uint64_t A = 0x8000;                          // an atomic
constexpr uint64_t n = 4;
constexpr uint64_t L = 1, M = 2, B = 3;  // locks and a barrier

using enum MemoryOrder;

template <typename D>
class EventModel : public ::testing::Test {
 protected:
  D d;
  Feeder f{&d};

  void expect_no_races() { EXPECT_TRUE(d.races().empty()) << ::testing::PrintToString(d.races()); }
  void expect_races(const std::vector<Race>& want) { EXPECT_EQ(d.races(), want); }
  // The single racing access `event` by tid on [addr, addr+n) against prev_tid@prev_clock.
  void expect_race(uint64_t addr, uint64_t event, RaceKind kind, ThreadId tid, ThreadId prev_tid, uint64_t prev_clock) {
    expect_races(races_over(addr, n, event, kind, tid, prev_tid, prev_clock));
  }
};

struct DetectorName {
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, DjitDetector> ? "djit" : "fasttrack";
  }
};
using Detectors = ::testing::Types<DjitDetector, FastTrackDetector>;
TYPED_TEST_SUITE(EventModel, Detectors, DetectorName);

// --- mutex --------------------------------------------------------------------

TYPED_TEST(EventModel, MutexHandOffOrders) {
  auto& f = this->f;
  f.acquire(0, L);
  f.write(0, X, n);
  f.release(0, L);
  f.acquire(1, L);
  f.read(1, X, n);
  f.write(1, X, n);
  f.release(1, L);
  f.acquire(0, L);  // and back
  f.read(0, X, n);
  f.write(0, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, MutexHandOffThroughOtherLockRaces) {
  auto& f = this->f;
  f.acquire(0, L);
  f.write(0, X, n);
  f.release(0, L);
  f.acquire(1, M);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

TYPED_TEST(EventModel, AccessAfterUnlockIsNotPublished) {
  auto& f = this->f;
  f.acquire(0, L);
  f.release(0, L);
  f.write(0, X, n);  // at 2, after the release
  f.acquire(1, L);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

// --- reader-writer lock ---------------------------------------------------------

TYPED_TEST(EventModel, RwlockWriteSideOrdersReadSide) {
  auto& f = this->f;
  f.acquire(0, L);
  f.write(0, X, n);
  f.release(0, L);
  f.acquire_shared(1, L);
  f.read(1, X, n);
  f.release_shared(1, L);
  f.acquire_shared(2, L);
  f.read(2, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, RwlockWriteOutsideWriteSideRaces) {
  auto& f = this->f;
  f.acquire(0, L);
  f.release(0, L);
  f.write(0, X, n);
  f.acquire_shared(1, L);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

TYPED_TEST(EventModel, RwlockReadSidesReadingDoNotRace) {
  auto& f = this->f;
  f.write(0, X, n);
  f.release(0, L);
  f.acquire_shared(1, L);
  f.acquire_shared(2, L);
  f.read(1, X, n);
  f.read(2, X, n);
  f.release_shared(1, L);
  f.release_shared(2, L);
  this->expect_no_races();
}

// Two read sides are not ordered with each other: a write under a read lock races.
TYPED_TEST(EventModel, RwlockReadSidesAreNotOrdered) {
  auto& f = this->f;
  f.acquire_shared(0, L);
  f.write(0, X, n);
  f.release_shared(0, L);
  f.acquire_shared(1, L);
  const uint64_t w = f.write(1, X, n);
  this->expect_race(X, w, RaceKind::WriteWrite, 1, 0, 1);
}

TYPED_TEST(EventModel, RwlockReadSideThenWriteSideOrdered) {
  auto& f = this->f;
  f.acquire_shared(0, L);
  f.write(0, X, n);
  f.release_shared(0, L);
  f.acquire(1, L);  // the write side orders after every earlier read side
  f.write(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, RwlockReadUnlockOrdersNextWriteLock) {
  auto& f = this->f;
  f.acquire_shared(0, L);
  f.read(0, X, n);
  f.release_shared(0, L);
  f.acquire_shared(1, L);
  f.read(1, X, n);
  f.release_shared(1, L);
  f.acquire(2, L);
  f.write(2, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, RwlockReadUnlockDoesNotOrderNextReadLock) {
  auto& f = this->f;
  f.acquire_shared(0, L);
  f.read(0, X, n);
  f.release_shared(0, L);
  f.acquire_shared(1, L);
  const uint64_t w = f.write(1, X, n);
  this->expect_race(X, w, RaceKind::ReadWrite, 1, 0, 1);
}

// --- fork / join ----------------------------------------------------------------

TYPED_TEST(EventModel, ForkOrdersParentBeforeChild) {
  auto& f = this->f;
  f.write(0, X, n);
  f.fork(0, 1);
  f.read(1, X, n);
  f.write(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, ParentAfterForkRacesWithChild) {
  auto& f = this->f;
  f.fork(0, 1);
  f.write(0, X, n);  // at 2
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

TYPED_TEST(EventModel, JoinOrdersChildBeforeParent) {
  auto& f = this->f;
  f.fork(0, 1);
  f.write(1, X, n);
  f.join(0, 1);
  f.read(0, X, n);
  f.write(0, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, ParentBeforeJoinRacesWithChild) {
  auto& f = this->f;
  f.fork(0, 1);
  f.write(1, X, n);
  const uint64_t r = f.read(0, X, n);
  f.join(0, 1);
  this->expect_race(X, r, RaceKind::WriteRead, 0, 1, 1);
}

TYPED_TEST(EventModel, JoinOfThreadThatDidMoreWork) {
  auto& f = this->f;
  f.fork(0, 1);
  f.tick(1, 9);
  f.write(1, X, n);  // at 10
  f.tick(1, 3);
  f.write(1, Y, n);  // at 13
  f.join(0, 1);
  f.read(0, X, n);
  f.write(0, Y, n);
  this->expect_no_races();
  EXPECT_EQ(this->d.thread_clock(0), (VectorClock{2, 13}));
}

TYPED_TEST(EventModel, JoinOfAnotherThreadDoesNotOrder) {
  auto& f = this->f;
  f.fork(0, 1);
  f.fork(0, 2);
  f.tick(1, 9);
  f.write(1, X, n);  // at 10
  f.join(0, 2);
  const uint64_t r = f.read(0, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 0, 1, 10);
}

// --- barrier ----------------------------------------------------------------------

// Every participant's pre-barrier accesses happen before every participant's
// post-barrier accesses, whatever the order of entries and exits.
TYPED_TEST(EventModel, BarrierIsAllToAll) {
  auto& f = this->f;
  for (ThreadId t = 0; t < 3; ++t) f.write(t, X + 16 * t, n);
  f.read(2, Y, n);
  f.barrier_enter(1, B);
  f.barrier_enter(0, B);
  f.barrier_enter(2, B);
  f.barrier_exit(2, B);
  f.barrier_exit(0, B);
  f.barrier_exit(1, B);
  for (ThreadId t = 0; t < 3; ++t) {
    for (ThreadId u = 0; u < 3; ++u) f.read(t, X + 16 * u, n);
  }
  f.write(0, Y, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, BarrierDoesNotOrderPostBarrierAccesses) {
  auto& f = this->f;
  f.barrier_enter(0, B);
  f.barrier_enter(1, B);
  f.barrier_exit(0, B);
  f.barrier_exit(1, B);
  f.write(0, X, n);  // at 2
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

TYPED_TEST(EventModel, BarrierNonParticipantIsNotOrdered) {
  auto& f = this->f;
  f.write(2, X, n);
  f.barrier_enter(0, B);
  f.barrier_enter(1, B);
  f.barrier_exit(0, B);
  f.barrier_exit(1, B);
  const uint64_t r = f.read(0, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 0, 2, 1);
}

TYPED_TEST(EventModel, BarrierTwoConsecutiveRounds) {
  auto& f = this->f;
  f.write(0, X, n);
  f.barrier_enter(0, B);
  f.barrier_enter(1, B);
  f.barrier_exit(1, B);
  f.barrier_exit(0, B);
  f.read(1, X, n);
  f.write(1, X, n);
  f.barrier_enter(1, B);
  f.barrier_enter(0, B);
  f.barrier_exit(0, B);
  f.barrier_exit(1, B);
  f.read(0, X, n);
  f.write(0, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, BarrierSecondRoundMissingRaces) {
  auto& f = this->f;
  f.write(0, X, n);
  f.barrier_enter(0, B);
  f.barrier_enter(1, B);
  f.barrier_exit(1, B);
  f.barrier_exit(0, B);
  f.read(1, X, n);
  f.write(1, X, n);  // T1 at 2
  const uint64_t r = f.read(0, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 0, 1, 2);
}

// T1 leaves round r after T0 has already left it and entered round r+1: T1
// gets round r's arrivals (T0's write of X) but not T0's accesses between
// the rounds, until round r+1 closes.
TYPED_TEST(EventModel, BarrierLateLeaverGetsOnlyItsRound) {
  auto& f = this->f;
  f.write(0, X, n);  // T0 at 1
  f.barrier_enter(0, B);
  f.barrier_enter(1, B);
  f.barrier_exit(0, B);  // closes round r
  f.write(0, Y, n);      // T0 at 2, between the rounds
  f.write(0, Z, n);
  f.barrier_enter(0, B);  // round r+1
  f.barrier_exit(1, B);   // late exit of round r
  f.read(1, X, n);
  const uint64_t r = f.read(1, Y, n);  // T0's write of Y is not ordered yet
  f.write(1, X + 16, n);
  f.barrier_enter(1, B);
  f.barrier_exit(0, B);  // closes round r+1
  f.barrier_exit(1, B);
  f.read(1, Z, n);       // ordered by round r+1
  f.read(0, X + 16, n);  // T1's write between the rounds, ordered by round r+1
  this->expect_race(Y, r, RaceKind::WriteRead, 1, 0, 2);
}

// --- atomics and fences ------------------------------------------------------------

TYPED_TEST(EventModel, ReleaseStoreAcquireLoadPublishes) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.load(1, A, Acquire);
  f.read(1, X, n);
  f.write(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, ConsumeLoadActsAsAcquire) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.load(1, A, Consume);
  f.read(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, WriteAfterReleaseStoreIsNotPublished) {
  auto& f = this->f;
  f.store(0, A, Release);
  f.write(0, X, n);  // at 2
  f.load(1, A, Acquire);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

TYPED_TEST(EventModel, RelaxedStoreAcquireLoadDoesNotPublish) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Relaxed);
  f.load(1, A, Acquire);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

TYPED_TEST(EventModel, ReleaseStoreRelaxedLoadDoesNotPublish) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.load(1, A, Relaxed);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

TYPED_TEST(EventModel, RelaxedLoadThenAcquireFencePublishes) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.load(1, A, Relaxed);
  f.fence(1, Acquire);
  f.read(1, X, n);
  f.write(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, AcquireFenceBeforeRelaxedLoadDoesNotPublish) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.fence(1, Acquire);
  f.load(1, A, Relaxed);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

// An acquire fence takes only what relaxed loads read since the previous acquire fence.
TYPED_TEST(EventModel, AcquireFenceConsumesPendingReleases) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);  // T0 at 2
  f.load(1, A, Relaxed);
  f.fence(1, Acquire);
  f.read(1, X, n);
  f.write(0, Y, n);
  f.store(0, A, Release);
  f.fence(1, Acquire);  // no new load: nothing to acquire
  const uint64_t r = f.read(1, Y, n);
  this->expect_race(Y, r, RaceKind::WriteRead, 1, 0, 2);
}

TYPED_TEST(EventModel, ReleaseFenceThenRelaxedStorePublishes) {
  auto& f = this->f;
  f.write(0, X, n);
  f.fence(0, Release);
  f.store(0, A, Relaxed);
  f.load(1, A, Acquire);
  f.read(1, X, n);
  f.write(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, ReleaseFenceToAcquireFence) {
  auto& f = this->f;
  f.write(0, X, n);
  f.fence(0, Release);
  f.store(0, A, Relaxed);
  f.load(1, A, Relaxed);
  f.fence(1, Acquire);
  f.read(1, X, n);
  this->expect_no_races();
}

// A relaxed store publishes the clock of the last release fence, not later accesses.
TYPED_TEST(EventModel, WriteAfterReleaseFenceIsNotPublished) {
  auto& f = this->f;
  f.fence(0, Release);
  f.write(0, X, n);  // at 2
  f.store(0, A, Relaxed);
  f.load(1, A, Acquire);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

// Release sequence: T1's release store, T2's relaxed RMW, T3's acquire load
// reading the RMW synchronizes with T1 but not with T2.
TYPED_TEST(EventModel, RelaxedRmwContinuesReleaseSequence) {
  auto& f = this->f;
  f.write(1, X, n);
  f.store(1, A, Release);
  f.write(2, Y, n);
  f.rmw(2, A, Relaxed);
  f.load(3, A, Acquire);
  f.read(3, X, n);  // synchronized with T1
  const uint64_t r = f.read(3, Y, n);
  this->expect_race(Y, r, RaceKind::WriteRead, 3, 2, 1);
}

// The relaxed RMW itself does not acquire.
TYPED_TEST(EventModel, RelaxedRmwDoesNotAcquire) {
  auto& f = this->f;
  f.write(1, X, n);
  f.store(1, A, Release);
  f.rmw(2, A, Relaxed);
  const uint64_t r = f.read(2, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 2, 1, 1);
}

// A plain relaxed store by another thread ends the release sequence.
TYPED_TEST(EventModel, RelaxedStoreBreaksReleaseSequence) {
  auto& f = this->f;
  f.write(1, X, n);
  f.store(1, A, Release);
  f.store(2, A, Relaxed);
  f.load(3, A, Acquire);
  const uint64_t r = f.read(3, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 3, 1, 1);
}

// C++20 (P0982): a relaxed store by the releasing thread itself ends it too.
TYPED_TEST(EventModel, SameThreadRelaxedStoreBreaksReleaseSequence) {
  auto& f = this->f;
  f.write(1, X, n);
  f.store(1, A, Release);
  f.store(1, A, Relaxed);
  f.load(3, A, Acquire);
  const uint64_t r = f.read(3, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 3, 1, 1);
}

// A new release store replaces the location's clock (it starts a new sequence).
TYPED_TEST(EventModel, ReleaseStoreStartsNewSequence) {
  auto& f = this->f;
  f.write(1, X, n);
  f.store(1, A, Release);
  f.write(2, Y, n);
  f.store(2, A, Release);
  f.load(3, A, Acquire);
  f.read(3, Y, n);
  const uint64_t r = f.read(3, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 3, 1, 1);
}

TYPED_TEST(EventModel, SeqCstStoreAndLoadActAsReleaseAndAcquire) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, SeqCst);
  f.load(1, A, SeqCst);
  f.read(1, X, n);
  f.write(1, Y, n);
  f.rmw(1, A, SeqCst);
  f.load(2, A, Acquire);
  f.read(2, X, n);
  f.read(2, Y, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, SeqCstFencesActAsReleaseAndAcquire) {
  auto& f = this->f;
  f.write(0, X, n);
  f.fence(0, SeqCst);
  f.store(0, A, Relaxed);
  f.load(1, A, Relaxed);
  f.fence(1, SeqCst);
  f.read(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, WriteAfterSeqCstStoreIsNotPublished) {
  auto& f = this->f;
  f.store(0, A, SeqCst);
  f.write(0, X, n);
  f.load(1, A, SeqCst);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 2);
}

// acq_rel RMWs chain: T2's RMW acquires T1's, T3's acquire load gets both.
TYPED_TEST(EventModel, AcqRelRmwChain) {
  auto& f = this->f;
  f.write(1, X, n);
  f.rmw(1, A, AcqRel);
  f.read(2, Z, n);
  f.write(2, Y, n);
  f.rmw(2, A, AcqRel);
  f.read(2, X, n);  // acquired from T1
  f.rmw(3, A, AcqRel);
  f.read(3, X, n);
  f.read(3, Y, n);
  f.write(3, Z, n);
  this->expect_no_races();
}

// An acquire-only RMW continues the sequence but does not release its own accesses.
TYPED_TEST(EventModel, AcquireRmwDoesNotRelease) {
  auto& f = this->f;
  f.write(1, X, n);
  f.rmw(1, A, AcqRel);
  f.write(2, Y, n);
  f.rmw(2, A, Acquire);
  f.load(3, A, Acquire);
  f.read(3, X, n);
  const uint64_t r = f.read(3, Y, n);
  this->expect_race(Y, r, RaceKind::WriteRead, 3, 2, 1);
}

TYPED_TEST(EventModel, ReleaseRmwDoesNotAcquire) {
  auto& f = this->f;
  f.write(1, X, n);
  f.rmw(1, A, Release);
  f.rmw(2, A, Release);
  const uint64_t r = f.read(2, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 2, 1, 1);
}

TYPED_TEST(EventModel, ConcurrentAtomicsDoNotRace) {
  auto& f = this->f;
  f.store(0, A, Relaxed);
  f.store(1, A, Relaxed);
  f.rmw(2, A, Relaxed);
  f.load(0, A, Relaxed);
  this->expect_no_races();
}

TYPED_TEST(EventModel, FreeClearsAtomicReleaseClocks) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.free(0, A, 8);
  f.load(1, A, Acquire);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

TYPED_TEST(EventModel, AllocClearsAtomicReleaseClocks) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A + 4, Release, 4);
  f.alloc(2, A, 16);
  f.load(1, A + 4, Acquire, 4);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

TYPED_TEST(EventModel, FreeOfOtherRangeKeepsAtomicReleaseClocks) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.free(0, A + 8, 8);
  f.free(0, A - 8, 8);
  f.load(1, A, Acquire);
  f.read(1, X, n);
  this->expect_no_races();
}

TYPED_TEST(EventModel, EmptyFreeKeepsAtomicReleaseClocks) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.free(2, A, 0);
  f.alloc(2, A + 8, 0);
  f.load(1, A, Acquire);
  f.read(1, X, n);
  this->expect_no_races();
}

// free(NULL) arrives as Free(addr 0, size 0): an empty range, which must not
// wrap around to erase every atomic's release clock.
TYPED_TEST(EventModel, FreeOfNullKeepsAtomicReleaseClocks) {
  auto& f = this->f;
  f.write(0, X, n);
  f.store(0, A, Release);
  f.free(2, 0, 0);
  f.load(1, A, Acquire);
  f.read(1, X, n);
  this->expect_no_races();
}

// A lock in freed (or newly allocated) memory is gone with it: a new lock at
// the same address starts with no history (ThreadSanitizer resets the sync
// state of freed memory), so acquiring it orders nothing after the old
// lock's releases (tests/programs/mutex_reused_after_free_race.c).
constexpr uint64_t kHeapLock = 0x9000;
TYPED_TEST(EventModel, FreeForgetsLockClocks) {
  auto& f = this->f;
  f.acquire(0, kHeapLock);
  f.write(0, X, n);
  f.release(0, kHeapLock);
  f.free(0, kHeapLock - 8, 48);
  f.acquire(1, kHeapLock);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

TYPED_TEST(EventModel, AllocForgetsLockClocks) {
  auto& f = this->f;
  f.acquire(0, kHeapLock);
  f.write(0, X, n);
  f.release(0, kHeapLock);
  f.alloc(2, kHeapLock, 40);
  f.acquire(1, kHeapLock);
  const uint64_t r = f.read(1, X, n);
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

// The shared side of a read-write lock goes too: a writer of the new lock
// is not ordered after the old lock's readers.
TYPED_TEST(EventModel, FreeForgetsSharedLockClocks) {
  auto& f = this->f;
  f.acquire_shared(0, kHeapLock);
  f.read(0, X, n);
  f.release_shared(0, kHeapLock);
  f.free(0, kHeapLock, 56);
  f.acquire(1, kHeapLock);
  const uint64_t w = f.write(1, X, n);
  this->expect_race(X, w, RaceKind::ReadWrite, 1, 0, 1);
}

// Only the locks inside the range: one just outside keeps its clocks, and
// a free of nothing (free(NULL)) forgets nothing.
TYPED_TEST(EventModel, FreeOfOtherRangeKeepsLockClocks) {
  auto& f = this->f;
  f.acquire(0, kHeapLock);
  f.write(0, X, n);
  f.release(0, kHeapLock);
  f.free(0, kHeapLock + 1, 64);
  f.free(0, kHeapLock - 64, 64);
  f.free(2, 0, 0);
  f.acquire(1, kHeapLock);
  f.read(1, X, n);
  this->expect_no_races();
}

// Destroy (pthread_mutex_destroy and the like) sends the lock's clocks,
// both sides, back to ⊥ as a free does, so a lock made again in the same
// memory orders nothing after the old one's releases
// (tests/programs/mutex_reinit_after_destroy_race.c) ...
TYPED_TEST(EventModel, DestroyForgetsLockClocks) {
  auto& f = this->f;
  f.acquire_shared(0, kHeapLock);
  f.write(0, Y, n);
  f.release_shared(0, kHeapLock);
  f.acquire(0, kHeapLock);
  f.write(0, X, n);
  f.release(0, kHeapLock);
  f.feed(Event::range(Op::Destroy, 0, kHeapLock, 40));
  f.acquire(1, kHeapLock);
  const uint64_t r = f.read(1, X, n);
  const uint64_t w = f.write(1, Y, n);
  this->expect_races(
      concat({races_over(X, n, r, RaceKind::WriteRead, 1, 0, 2), races_over(Y, n, w, RaceKind::WriteWrite, 1, 0, 1)}));
}

// ... but, unlike a free, keeps the memory's history: a write racing with
// an access made before the destroy is still found, and so is a lock just
// outside the range.
TYPED_TEST(EventModel, DestroyKeepsMemoryHistoryAndOtherLocks) {
  auto& f = this->f;
  f.write(0, kHeapLock, n);
  f.acquire(0, kHeapLock + 64);
  f.write(0, X, n);
  f.release(0, kHeapLock + 64);
  f.feed(Event::range(Op::Destroy, 0, kHeapLock, 64));
  const uint64_t w = f.write(1, kHeapLock, n);
  f.acquire(1, kHeapLock + 64);
  f.read(1, X, n);
  this->expect_race(kHeapLock, w, RaceKind::WriteWrite, 1, 0, 1);
}

// Begin/End (transaction markers) create no happens-before.
TYPED_TEST(EventModel, BeginEndDoNotOrder) {
  auto& f = this->f;
  f.feed(Event::sync(Op::Begin, 0, 0));
  f.write(0, X, n);
  f.feed(Event::sync(Op::End, 0, 0));
  f.feed(Event::sync(Op::Begin, 1, 0));
  const uint64_t r = f.read(1, X, n);
  f.feed(Event::sync(Op::End, 1, 0));
  this->expect_race(X, r, RaceKind::WriteRead, 1, 0, 1);
}

}  // namespace
}  // namespace raceaccel
