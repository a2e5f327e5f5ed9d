// The atomic access kind (docs/event-model.md, "Atomic accesses"), on both
// detectors: AtomicLoad is an atomic read, AtomicStore an atomic write,
// AtomicRmw both. Two atomic accesses never race; an atomic access races
// with a concurrent plain access when at least one of them writes. The
// access is checked with the clock after the acquire part of its event and
// before the release part's increment.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "trace_builder.hpp"

namespace raceaccel {
namespace {

using test::Feeder;

constexpr uint64_t A = 0x8000;  // an atomic variable (8 bytes unless said otherwise)
constexpr uint64_t X = 0x1000;  // plain data
constexpr uint64_t L = 1;       // a lock

using enum MemoryOrder;

template <typename D>
class AtomicAccess : public ::testing::Test {
 protected:
  D d;
  Feeder f{&d};

  void expect_no_races() { EXPECT_TRUE(d.races().empty()) << ::testing::PrintToString(d.races()); }
  // The races of one access `event` by tid over [addr, addr+size) against prev_tid@prev_clock.
  void expect_races(uint64_t addr, uint64_t size, uint64_t event, RaceKind kind, ThreadId tid, ThreadId prev_tid,
                    uint64_t prev_clock, bool atomic, bool prev_atomic, uint64_t site = 0, uint64_t prev_site = 0) {
    std::vector<Race> want;
    for (uint64_t i = 0; i < size; ++i) {
      want.push_back({addr + i, event, kind, tid, site, prev_tid, prev_clock, prev_site, atomic, prev_atomic});
    }
    EXPECT_EQ(d.races(), want);
  }
};

struct DetectorName {
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, DjitDetector> ? "djit" : "fasttrack";
  }
};
using Detectors = ::testing::Types<DjitDetector, FastTrackDetector>;
TYPED_TEST_SUITE(AtomicAccess, Detectors, DetectorName);

// --- plain against atomic: at least one writes -------------------------------------

TYPED_TEST(AtomicAccess, PlainReadRacesWithConcurrentAtomicStore) {
  auto& f = this->f;
  f.feed(Event::atomic(Op::AtomicStore, 0, A, 8, Relaxed, 11));
  const uint64_t r = f.read(1, A, 8, 12);
  this->expect_races(A, 8, r, RaceKind::WriteRead, 1, 0, 1, false, true, 12, 11);
}

TYPED_TEST(AtomicAccess, AtomicStoreRacesWithConcurrentPlainRead) {
  auto& f = this->f;
  f.read(0, A, 8, 11);
  const uint64_t s = f.feed(Event::atomic(Op::AtomicStore, 1, A, 8, Release, 12));
  this->expect_races(A, 8, s, RaceKind::ReadWrite, 1, 0, 1, true, false, 12, 11);
}

TYPED_TEST(AtomicAccess, PlainWriteRacesWithConcurrentAtomicLoad) {
  auto& f = this->f;
  f.feed(Event::atomic(Op::AtomicLoad, 0, A, 8, Acquire, 11));
  const uint64_t w = f.write(1, A, 8, 12);
  this->expect_races(A, 8, w, RaceKind::ReadWrite, 1, 0, 1, false, true, 12, 11);
}

TYPED_TEST(AtomicAccess, AtomicLoadRacesWithConcurrentPlainWrite) {
  auto& f = this->f;
  f.write(0, A, 8, 11);
  const uint64_t l = f.feed(Event::atomic(Op::AtomicLoad, 1, A, 8, SeqCst, 12));
  this->expect_races(A, 8, l, RaceKind::WriteRead, 1, 0, 1, true, false, 12, 11);
}

TYPED_TEST(AtomicAccess, PlainWriteRacesWithConcurrentAtomicStore) {
  auto& f = this->f;
  f.store(0, A, Release);
  const uint64_t w = f.write(1, A, 8);
  this->expect_races(A, 8, w, RaceKind::WriteWrite, 1, 0, 1, false, true);
}

TYPED_TEST(AtomicAccess, RmwRacesWithConcurrentPlainRead) {
  auto& f = this->f;
  f.read(0, A, 8, 11);
  const uint64_t m = f.feed(Event::atomic(Op::AtomicRmw, 1, A, 8, AcqRel, 12));
  this->expect_races(A, 8, m, RaceKind::ReadWrite, 1, 0, 1, true, false, 12, 11);
}

TYPED_TEST(AtomicAccess, PlainReadRacesWithConcurrentRmw) {
  auto& f = this->f;
  f.feed(Event::atomic(Op::AtomicRmw, 0, A, 8, Relaxed, 11));
  const uint64_t r = f.read(1, A, 8, 12);
  this->expect_races(A, 8, r, RaceKind::WriteRead, 1, 0, 1, false, true, 12, 11);
}

// A later plain write names the RMW as a write (atomic writes are checked
// before atomic reads).
TYPED_TEST(AtomicAccess, PlainWriteAfterRmwNamesItsWrite) {
  auto& f = this->f;
  f.rmw(0, A, Relaxed);
  const uint64_t w = f.write(1, A, 8);
  this->expect_races(A, 8, w, RaceKind::WriteWrite, 1, 0, 1, false, true);
}

TYPED_TEST(AtomicAccess, PlainReadsAndAtomicReadsDoNotRace) {
  auto& f = this->f;
  f.read(0, A, 8);
  f.load(1, A, Relaxed);
  f.read(2, A, 8);
  f.load(0, A, Acquire);
  this->expect_no_races();
}

// --- atomic against atomic: never ------------------------------------------------

TYPED_TEST(AtomicAccess, AtomicStoresDoNotRace) {
  auto& f = this->f;
  f.store(0, A, Relaxed);
  f.store(1, A, Relaxed);
  f.store(2, A, Release);
  this->expect_no_races();
}

TYPED_TEST(AtomicAccess, AtomicLoadAndStoreDoNotRace) {
  auto& f = this->f;
  f.load(0, A, Relaxed);
  f.store(1, A, Relaxed);
  f.load(2, A, Acquire);
  f.rmw(0, A, Relaxed);
  f.load(1, A, Relaxed);
  this->expect_no_races();
}

// --- which clock checks the access -----------------------------------------------

// The plain initialization of an atomic, then a release store: an acquire
// load reading it is ordered after the initialization (the load's read is
// checked with the clock its acquire produced), and so are later plain
// accesses.
TYPED_TEST(AtomicAccess, PublicationThroughReleaseStoreAndAcquireLoad) {
  auto& f = this->f;
  f.write(0, A, 8);
  f.write(0, X, 8);
  f.store(0, A, Release);
  f.load(1, A, Acquire);
  f.read(1, A, 8);
  f.read(1, X, 8);
  f.write(1, A, 8);  // after the acquire, the store itself is ordered too
  this->expect_no_races();
}

TYPED_TEST(AtomicAccess, AcquireRmwIsOrderedAfterThePublishedInitialization) {
  auto& f = this->f;
  f.write(0, A, 8);
  f.store(0, A, Release);
  f.rmw(1, A, Acquire);
  this->expect_no_races();
}

TYPED_TEST(AtomicAccess, RelaxedLoadIsNotOrderedAfterTheInitialization) {
  auto& f = this->f;
  f.write(0, A, 8);  // at 1
  f.store(0, A, Release);
  const uint64_t l = f.load(1, A, Relaxed);
  this->expect_races(A, 8, l, RaceKind::WriteRead, 1, 0, 1, true, false);
}

// A release store's own write is covered by the clock it releases: it is
// checked (and recorded) before the release's increment.
TYPED_TEST(AtomicAccess, ReleaseStorePublishesItself) {
  auto& f = this->f;
  f.store(0, A, Release);
  f.load(1, A, Acquire);
  f.write(1, A, 8);
  this->expect_no_races();
}

TYPED_TEST(AtomicAccess, RelaxedStoreDoesNotPublishItself) {
  auto& f = this->f;
  f.store(0, A, Relaxed);
  f.load(1, A, Acquire);
  const uint64_t w = f.write(1, A, 8);
  this->expect_races(A, 8, w, RaceKind::WriteWrite, 1, 0, 1, false, true);
}

// A relaxed load followed by an acquire fence: the load itself is not
// ordered after the initialization (only what follows the fence is).
TYPED_TEST(AtomicAccess, AcquireFenceOrdersWhatFollowsNotTheLoad) {
  auto& f = this->f;
  f.write(0, X, 8);
  f.store(0, A, Release);
  f.load(1, A, Relaxed);
  f.fence(1, Acquire);
  f.read(1, X, 8);
  this->expect_no_races();
}

// --- which earlier access a race names ---------------------------------------------

// Concurrent atomic stores by threads 0 and 1; thread 2 is ordered after
// thread 1's only. Its plain read races with thread 0's store.
TYPED_TEST(AtomicAccess, PlainReadNamesTheConcurrentAtomicWriter) {
  auto& f = this->f;
  f.tick(0, 2);                                                  // thread 0 at 3
  f.feed(Event::atomic(Op::AtomicStore, 0, A, 8, Relaxed, 10));  // 0@3
  f.feed(Event::atomic(Op::AtomicStore, 1, A, 8, Relaxed, 11));  // 1@1
  f.publish(1, 2, L);
  const uint64_t r = f.read(2, A, 8, 12);
  this->expect_races(A, 8, r, RaceKind::WriteRead, 2, 0, 3, false, true, 12, 10);
}

// A plain write ordered after every atomic access: later accesses are
// checked against it first, so it is the one a concurrent access names.
TYPED_TEST(AtomicAccess, PlainWriteAfterAtomicsIsNamedFirst) {
  auto& f = this->f;
  f.store(0, A, Relaxed);
  f.load(1, A, Relaxed);
  f.publish(0, 2, L);
  f.publish(1, 2, L + 1);
  f.write(2, A, 8);  // ordered after both
  const uint64_t m = f.rmw(0, A, Relaxed);
  this->expect_races(A, 8, m, RaceKind::WriteWrite, 0, 2, 1, true, false);
}

// --- mixed sizes ------------------------------------------------------------------

TYPED_TEST(AtomicAccess, NarrowPlainReadInsideAtomicStoreRacesOnItsByte) {
  auto& f = this->f;
  f.store(0, A, Relaxed, 8);
  const uint64_t r = f.read(1, A + 3, 1);
  this->expect_races(A + 3, 1, r, RaceKind::WriteRead, 1, 0, 1, false, true);
}

TYPED_TEST(AtomicAccess, WidePlainReadOverNarrowAtomicStoreRacesOnItsBytes) {
  auto& f = this->f;
  f.store(0, A + 4, Relaxed, 4);
  const uint64_t r = f.read(1, A, 16);
  this->expect_races(A + 4, 4, r, RaceKind::WriteRead, 1, 0, 1, false, true);
}

TYPED_TEST(AtomicAccess, OverlappingAtomicsOfDifferentSizesDoNotRace) {
  auto& f = this->f;
  f.store(0, A, Relaxed, 4);
  f.rmw(1, A, Relaxed, 8);
  f.load(2, A + 2, Relaxed, 2);
  f.store(1, A + 6, Relaxed, 2);
  this->expect_no_races();
}

TYPED_TEST(AtomicAccess, UnalignedAtomicAcrossGranulesRacesWithPlainWrites) {
  auto& f = this->f;
  f.write(0, A + 6, 1);
  f.write(0, A + 9, 1);
  const uint64_t l = f.load(1, A + 5, Relaxed, 6);  // bytes A+5..A+10
  std::vector<Race> want;
  for (uint64_t b : {A + 6, A + 9}) want.push_back({b, l, RaceKind::WriteRead, 1, 0, 0, 1, 0, true, false});
  EXPECT_EQ(this->d.races(), want);
}

// --- history ends with the memory -------------------------------------------------

TYPED_TEST(AtomicAccess, FreeForgetsAtomicAccesses) {
  auto& f = this->f;
  f.store(0, A, Relaxed);
  f.free(0, A, 8);
  f.read(1, A, 8);
  f.write(2, X, 8);
  f.rmw(1, X, Relaxed);  // races: X's plain write is concurrent
  ASSERT_EQ(this->d.races().size(), 8u);
  EXPECT_EQ(this->d.races()[0].addr, X);
}

}  // namespace
}  // namespace raceaccel
