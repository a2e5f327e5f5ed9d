// Sharded checking (host/detect/sharded_checker.cpp) must report exactly what
// one detector reports: on random traces with every kind of event (locks,
// rwlocks, fork/join, barriers, atomics with every order, fences,
// alloc/free) plus ranges across block edges, FastTrack and DJIT+ sharded
// over 1, 2, 3, 4 and 7 jobs, with blocks of 8 bytes to 4 KiB and batches
// of 1 to 1000 events, give the same races in the same order, with every
// field equal, as the detector alone — and FastTrack's agree with DJIT+'s.
#include "detect/sharded_checker.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "../common/race_keys.hpp"
#include "../common/random_trace_options.hpp"
#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"
#include "gen/generator.hpp"

namespace raceaccel {
namespace {

constexpr unsigned kJobs[] = {1, 2, 3, 4, 7};

// A random range event by thread t over the generator's regions
// (host/gen/generator.cpp), at any alignment and up to a few pages long, so
// that accesses, atomics, allocs and frees straddle block edges.
Event range_event(ThreadId t, uint32_t threads, std::mt19937_64& rng) {
  auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  const uint64_t bases[] = {
      0x1000'0000 + pick(0, threads) * 0x1000, 0x2000'0000, 0x3000'0000, 0x4000'0000, 0x5A00'0000, 0x8000'0000};
  const uint64_t addr = bases[pick(0, 5)] + pick(0, 0x1800);
  const uint64_t size = pick(0, 3) == 0 ? pick(1, 9000) : pick(1, 24);
  const auto order = static_cast<MemoryOrder>(pick(0, kMemoryOrderCount - 1));
  switch (pick(0, 7)) {
    case 0:
    case 1: return Event::read(t, addr, size, 900 + t);
    case 2:
    case 3: return Event::write(t, addr, size, 901 + t);
    case 4: return Event::atomic(Op::AtomicLoad, t, addr, std::min<uint64_t>(size, 64), order, 902);
    case 5:
      return Event::atomic(pick(0, 1) ? Op::AtomicStore : Op::AtomicRmw, t, addr, std::min<uint64_t>(size, 64), order,
                           903);
    case 6: return Event::range(Op::Alloc, t, addr, size, 904);
    default: return Event::range(Op::Free, t, addr, size, 905);
  }
}

// A generated trace (atomics mixed with plain accesses in half of them)
// with range events interleaved. In one trace of three the forks are
// dropped, so threads first appear at a plain access: every shard must give
// them their slot there, owner of the bytes or not.
std::vector<Event> random_trace(uint64_t seed) {
  GeneratorOptions o = test::random_trace_options(seed, 1500, 4000);
  o.atomic_mixing = seed % 2 == 0;
  o.lock_lifecycle = seed % 3 == 0;
  const bool without_forks = seed % 3 == 0;
  TraceGenerator generator(o);
  std::mt19937_64 rng(seed * 7919 + 1);
  std::vector<Event> trace;
  Event e;
  while (generator.next(e)) {
    if (without_forks && e.op == Op::Fork) continue;
    trace.push_back(e);
    if (rng() % 20 == 0) trace.push_back(range_event(e.tid, o.threads, rng));
  }
  return trace;
}

std::vector<Race> check_alone(std::string_view detector, const std::vector<Event>& trace) {
  std::unique_ptr<Detector> d = make_detector(detector);
  for (uint64_t i = 0; i < trace.size(); ++i) d->process(trace[i], i);
  return d->races();
}

std::vector<Race> check_sharded(std::string_view detector, const std::vector<Event>& trace,
                                const ShardedChecker::Options& options) {
  ShardedChecker checker(detector, options);
  for (uint64_t i = 0; i < trace.size(); ++i) checker.process(trace[i], i);
  checker.finish();
  return checker.races();
}

ShardedChecker::Options options_for(uint64_t seed, unsigned jobs) {
  std::mt19937_64 rng(seed * 31 + jobs);
  const unsigned shifts[] = {3, 4, 6, 12};
  const size_t batch_events[] = {1, 5, 64, 1000};
  ShardedChecker::Options o;
  o.jobs = jobs;
  o.block_shift = shifts[rng() % 4];
  o.batch_events = batch_events[rng() % 4];
  o.batches = 2 + rng() % 3;
  return o;
}

// Says which configuration a failure comes from.
std::string describe(uint64_t seed, const ShardedChecker::Options& o) {
  return "seed " + std::to_string(seed) + ", jobs " + std::to_string(o.jobs) + ", blocks of 2^" +
         std::to_string(o.block_shift) + " bytes, batches of " + std::to_string(o.batch_events);
}

class ShardedDifferential : public ::testing::TestWithParam<uint64_t> {};

TEST_P(ShardedDifferential, EveryJobCountGivesOneDetectorsRaces) {
  uint64_t traces_with_races = 0;
  uint64_t atomic_races = 0;
  for (uint64_t k = 0; k < 6; ++k) {
    const uint64_t seed = GetParam() * 6 + k + 1;
    const std::vector<Event> trace = random_trace(seed);
    const std::vector<Race> fasttrack = check_alone("fasttrack", trace);
    const std::vector<Race> djit = check_alone("djit", trace);
    // One detector's races come in (event, byte) order: the order the merge restores.
    ASSERT_TRUE(std::is_sorted(fasttrack.begin(), fasttrack.end(), [](const Race& a, const Race& b) {
      return a.event != b.event ? a.event < b.event : a.addr < b.addr;
    }));
    ASSERT_EQ(test::race_keys(fasttrack), test::race_keys(djit)) << "seed " << seed;
    traces_with_races += fasttrack.empty() ? 0 : 1;
    for (const Race& r : djit) atomic_races += (r.atomic || r.prev_atomic) ? 1 : 0;
    for (const unsigned jobs : kJobs) {
      const ShardedChecker::Options o = options_for(seed, jobs);
      ASSERT_EQ(check_sharded("fasttrack", trace, o), fasttrack) << "fasttrack, " << describe(seed, o);
      ASSERT_EQ(check_sharded("djit", trace, o), djit) << "djit, " << describe(seed, o);
    }
  }
  // The traces do exercise what is compared.
  EXPECT_GE(traces_with_races, 3u);
  RecordProperty("atomic_races", static_cast<int>(atomic_races));
}

INSTANTIATE_TEST_SUITE_P(Seeds, ShardedDifferential, ::testing::Range<uint64_t>(0, 8));

// Two threads that first appear at plain accesses, in an order that only
// the shard owning the first one's bytes sees: a shard that numbered them
// by its own sightings would name the wrong earlier reader (FastTrack and
// DJIT+ name the lowest slot among concurrent readers).
TEST(ShardedChecker, ThreadSlotsFollowTheWholeTrace) {
  std::vector<Event> trace;
  trace.push_back(Event::read(7, 0x10'0000, 1, 1));  // thread 7 first, far from 0x20'0000
  trace.push_back(Event::read(5, 0x20'0000, 1, 2));
  trace.push_back(Event::read(7, 0x20'0000, 1, 3));
  trace.push_back(Event::write(9, 0x20'0000, 1, 4));  // races with both readers: names slot 0's (thread 7)
  const std::vector<Race> alone = check_alone("fasttrack", trace);
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].prev_tid, 7u);
  for (const unsigned jobs : kJobs) {
    for (const unsigned shift : {3u, 12u}) {
      ShardedChecker::Options o;
      o.jobs = jobs;
      o.block_shift = shift;
      EXPECT_EQ(check_sharded("fasttrack", trace, o), alone) << "jobs " << jobs;
      EXPECT_EQ(check_sharded("djit", trace, o), check_alone("djit", trace)) << "jobs " << jobs;
    }
  }
}

// An access across a block edge is checked in two shards; its races are
// one detector's, byte by byte, in byte order.
TEST(ShardedChecker, AccessAcrossBlocksIsSplitExactly) {
  std::vector<Event> trace = {Event::write(1, 0xFF0, 0x40, 1), Event::write(2, 0xFF8, 0x20, 2)};
  const std::vector<Race> alone = check_alone("fasttrack", trace);
  ASSERT_EQ(alone.size(), 0x20u);
  for (const unsigned jobs : kJobs) {
    ShardedChecker::Options o;
    o.jobs = jobs;
    o.block_shift = 3;
    EXPECT_EQ(check_sharded("fasttrack", trace, o), alone) << "jobs " << jobs;
  }
}

TEST(ShardedChecker, RejectsBadOptions) {
  ShardedChecker::Options o;
  o.jobs = 0;
  EXPECT_THROW(ShardedChecker("fasttrack", o), std::invalid_argument);
  o.jobs = ShardedChecker::kMaxJobs + 1;
  EXPECT_THROW(ShardedChecker("fasttrack", o), std::invalid_argument);
  o.jobs = 2;
  o.block_shift = 2;  // finer than FastTrack's granule
  EXPECT_THROW(ShardedChecker("fasttrack", o), std::invalid_argument);
  o.block_shift = 12;
  EXPECT_THROW(ShardedChecker("nonesuch", o), std::invalid_argument);
}

// Destroyed in the middle of a trace (the caller failed): the workers stop.
TEST(ShardedChecker, StopsWithoutFinish) {
  ShardedChecker::Options o;
  o.jobs = 3;
  o.batch_events = 4;
  ShardedChecker checker("fasttrack", o);
  for (uint64_t i = 0; i < 50; ++i) checker.process(Event::write(static_cast<ThreadId>(i % 3), 8 * i, 8), i);
}

TEST(ShardedChecker, EmptyTrace) {
  ShardedChecker checker("djit", {});
  checker.finish();
  EXPECT_TRUE(checker.races().empty());
  EXPECT_EQ(checker.name(), "djit");
}

}  // namespace
}  // namespace raceaccel
