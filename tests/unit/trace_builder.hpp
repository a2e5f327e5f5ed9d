// Test helper: feeds hand-written event sequences to one or more detectors
// with consecutive trace indices, and builds the prefixes that reach the
// initial states of the papers' worked examples (a thread clock of k is
// reached by k-1 releases of a private dummy lock; knowledge of another
// thread's clock comes from acquiring a lock it released at that clock).
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <ostream>
#include <vector>

#include "core/event.hpp"
#include "core/vector_clock.hpp"
#include "detect/detector.hpp"
#include "detect/race.hpp"

namespace raceaccel {

// Readable gtest output for the detector types (found by ADL).
inline void PrintTo(const VectorClock& v, std::ostream* os) { *os << v.to_string(); }
inline void PrintTo(const Epoch& e, std::ostream* os) { *os << e.slot << '@' << e.clock; }
inline void PrintTo(RaceKind k, std::ostream* os) { *os << race_kind_name(k); }
inline void PrintTo(const Race& r, std::ostream* os) {
  *os << "{addr=0x" << std::hex << r.addr << std::dec << " event=" << r.event << ' ' << race_kind_name(r.kind)
      << " tid=" << r.tid << " site=" << r.site << " prev=" << r.prev_tid << '@' << r.prev_clock
      << " prev_site=" << r.prev_site << '}';
}

namespace test {

// Lock ids the helpers use; tests use small ids for their own locks.
inline constexpr uint64_t kDummyLockBase = 0xD000'0000;  // + tid: a private lock nobody acquires

// Race{addr, event, kind, tid, site, prev_tid, prev_clock, prev_site} in a readable order.
inline Race race(uint64_t addr, uint64_t event, RaceKind kind, ThreadId tid, ThreadId prev_tid, uint64_t prev_clock,
                 uint64_t site = 0, uint64_t prev_site = 0) {
  return Race{addr, event, kind, tid, site, prev_tid, prev_clock, prev_site};
}

// One race per byte of [addr, addr+size), all caused by the same pair of accesses.
inline std::vector<Race> races_over(uint64_t addr, uint64_t size, uint64_t event, RaceKind kind, ThreadId tid,
                                    ThreadId prev_tid, uint64_t prev_clock, uint64_t site = 0, uint64_t prev_site = 0) {
  std::vector<Race> out;
  for (uint64_t i = 0; i < size; ++i)
    out.push_back(race(addr + i, event, kind, tid, prev_tid, prev_clock, site, prev_site));
  return out;
}

inline std::vector<Race> concat(std::initializer_list<std::vector<Race>> parts) {
  std::vector<Race> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Feeds every event to all attached detectors with the same, consecutive index.
class Feeder {
 public:
  Feeder(std::initializer_list<Detector*> detectors) : detectors_(detectors) {}

  uint64_t feed(const Event& e) {
    const uint64_t index = next_++;
    for (Detector* d : detectors_) d->process(e, index);
    return index;
  }
  uint64_t next_index() const { return next_; }

  uint64_t read(ThreadId t, uint64_t addr, uint64_t size = 1, uint64_t site = 0) {
    return feed(Event::read(t, addr, size, site));
  }
  uint64_t write(ThreadId t, uint64_t addr, uint64_t size = 1, uint64_t site = 0) {
    return feed(Event::write(t, addr, size, site));
  }
  uint64_t acquire(ThreadId t, uint64_t lock) { return feed(Event::sync(Op::Acquire, t, lock)); }
  uint64_t release(ThreadId t, uint64_t lock) { return feed(Event::sync(Op::Release, t, lock)); }
  uint64_t acquire_shared(ThreadId t, uint64_t lock) { return feed(Event::sync(Op::AcquireShared, t, lock)); }
  uint64_t release_shared(ThreadId t, uint64_t lock) { return feed(Event::sync(Op::ReleaseShared, t, lock)); }
  uint64_t fork(ThreadId t, ThreadId child) { return feed(Event::sync(Op::Fork, t, child)); }
  uint64_t join(ThreadId t, ThreadId joined) { return feed(Event::sync(Op::Join, t, joined)); }
  uint64_t barrier_enter(ThreadId t, uint64_t barrier) { return feed(Event::sync(Op::BarrierEnter, t, barrier)); }
  uint64_t barrier_exit(ThreadId t, uint64_t barrier) { return feed(Event::sync(Op::BarrierExit, t, barrier)); }
  uint64_t load(ThreadId t, uint64_t addr, MemoryOrder m, uint64_t size = 8) {
    return feed(Event::atomic(Op::AtomicLoad, t, addr, size, m));
  }
  uint64_t store(ThreadId t, uint64_t addr, MemoryOrder m, uint64_t size = 8) {
    return feed(Event::atomic(Op::AtomicStore, t, addr, size, m));
  }
  uint64_t rmw(ThreadId t, uint64_t addr, MemoryOrder m, uint64_t size = 8) {
    return feed(Event::atomic(Op::AtomicRmw, t, addr, size, m));
  }
  uint64_t fence(ThreadId t, MemoryOrder m) { return feed(Event::fence(t, m)); }
  uint64_t alloc(ThreadId t, uint64_t addr, uint64_t size) { return feed(Event::range(Op::Alloc, t, addr, size)); }
  uint64_t free(ThreadId t, uint64_t addr, uint64_t size) { return feed(Event::range(Op::Free, t, addr, size)); }

  // Advances C_t(t) by k with releases of t's private dummy lock (no other effect).
  // On a thread's first appearance this also creates it (C_t(t) = 1 before the first release).
  void tick(ThreadId t, unsigned k = 1) {
    for (unsigned i = 0; i < k; ++i) release(t, kDummyLockBase + t);
  }
  // from's current knowledge flows to `to` through `lock` (release, then acquire).
  void publish(ThreadId from, ThreadId to, uint64_t lock) {
    release(from, lock);
    acquire(to, lock);
  }

 private:
  std::vector<Detector*> detectors_;
  uint64_t next_ = 0;
};

}  // namespace test
}  // namespace raceaccel
