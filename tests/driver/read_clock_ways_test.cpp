// Several read clocks per line (register map version 6, cap_read_vc_ways >
// 1; docs/kernel-interface.md, "Several read clocks per line") on the
// software model against DJIT+: tiny set-associative pools (1–2 sets of 2 or
// 4 ways) under tiny caches and bucket tables, with traces whose words are
// read by different threads field by field and partially, so that lines
// hold several clocks, clocks split, ways are displaced and spilled with
// their bytes, evicted lines spill every clock, escalations carry one clock
// and spill the others, and re-import sends lines with several clocks back
// (op 7 and op 8). Every trace must give exactly DJIT+'s races.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../common/random_trace_options.hpp"
#include "driver/software/software_device.hpp"
#include "gen/generator.hpp"
#include "golden_comparison.hpp"

namespace raceaccel::test {
namespace {

// Workers read a few 8-byte words field by field: each read is 1, 2, 4 or 8
// aligned bytes of a word, so the bytes of one word are read by different
// reader sets (one clock per field) and whole-word reads after field reads
// span several clocks; some reads are partial reads of a field a clock
// covers. Now and then a write (under a lock or not, whole word or field)
// or a free of a field ends sharing, and locked reads order readers.
class FieldReadTrace {
 public:
  FieldReadTrace(uint64_t seed, uint32_t threads, uint64_t words, uint64_t events)
      : rng_(seed), threads_(threads), words_(words), events_(events) {}
  bool next(Event& e) {
    while (pending_.empty() && step_ <= events_ + 1) refill();
    if (pending_.empty()) return false;
    e = pending_.front();
    pending_.erase(pending_.begin());
    return true;
  }

 private:
  static constexpr uint64_t kTable = 0x7000'0000;
  uint64_t pick(uint64_t n) { return rng_() % n; }
  // An aligned field of 1, 2, 4 or 8 bytes in a random word.
  std::pair<uint64_t, uint64_t> field() {
    const uint64_t size = uint64_t{1} << pick(4);
    return {kTable + 8 * pick(words_) + size * pick(8 / size), size};
  }
  void refill() {
    if (step_ == 0) {
      for (uint64_t w = 0; w < words_; ++w) pending_.push_back(Event::write(0, kTable + 8 * w, 8, 1));
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Fork, 0, t));
    } else if (step_ == events_ + 1) {
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Join, 0, t));
    } else {
      const auto t = static_cast<ThreadId>(1 + pick(threads_ - 1));
      const auto [addr, size] = field();
      const uint64_t action = pick(1000);
      if (action < 820) {
        pending_.push_back(Event::read(t, addr, size, 100 + t));
      } else if (action < 900) {
        pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::read(t, addr, size, 200 + t));
        pending_.push_back(Event::sync(Op::Release, t, 0x10));
      } else if (action < 985) {
        const bool locked = pick(3) != 0;
        if (locked) pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::write(t, addr, size, 300 + t));
        if (locked) pending_.push_back(Event::sync(Op::Release, t, 0x10));
      } else {
        pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::range(Op::Free, t, addr, size, 400 + t));
        pending_.push_back(Event::write(t, addr, size, 500 + t));
        pending_.push_back(Event::sync(Op::Release, t, 0x10));
      }
    }
    ++step_;
  }
  std::mt19937_64 rng_;
  uint32_t threads_;
  uint64_t words_, events_, step_ = 0;
  std::vector<Event> pending_;
};

struct Shape {
  unsigned pool, ways;
  driver::CacheShape cache;
};

struct Totals {
  uint64_t traces = 0, races = 0, accesses = 0, on_chip = 0, clock_spills = 0, reimports = 0, more_clocks = 0;
  uint64_t partial_spills = 0, lastwrite = 0;
};

void run(const Shape& s, size_t batch, uint64_t seed, bool field_trace, Totals& t, uint64_t words = 0) {
  driver::DeviceOptions o;
  o.software_slots = 8;
  o.software_clock_bits = 16;
  o.software_read_vcs = s.pool;
  o.software_read_vc_ways = s.ways;
  o.software_objects = 4;
  auto device = driver::make_software_device(o, s.cache);
  offload::OffloadOptions oo;
  oo.batch_words = batch;
  oo.bucket_bits = 2;
  GoldenRun r;
  if (field_trace) {
    FieldReadTrace trace(seed, 2 + static_cast<uint32_t>(seed % 7), words != 0 ? words : 3 + seed % 4, 1500);
    r = run_with_golden(*device, oo, [&](Event& e) { return trace.next(e); });
  } else {
    TraceGenerator generator(random_trace_options(seed, 1000, 2500));
    r = run_with_golden(*device, oo, [&](Event& e) { return generator.next(e); });
  }
  expect_same_races(r, "pool " + std::to_string(s.pool) + " of " + std::to_string(s.ways) + " ways, cache " +
                           std::to_string(s.cache.sets) + " x " + std::to_string(s.cache.ways) + ", batches of " +
                           std::to_string(batch) + (field_trace ? ", field trace" : ", generated trace") + ", seed " +
                           std::to_string(seed));
  ++t.traces;
  t.races += r.golden.size();
  t.accesses += r.stats.access_commands;
  t.on_chip += r.stats.on_chip();
  t.clock_spills += r.stats.read_clock_spills;
  t.reimports += r.stats.reimports;
  t.more_clocks += r.stats.reimported_more_clocks;
  t.partial_spills += r.stats.partial_read_clock_spills;
  t.lastwrite += r.stats.causes[static_cast<size_t>(offload::EscalationCause::LastWrite)];
}

const std::vector<Shape> kShapes{
    {2, 2, {2, 2, 4}},  // one pool set of 2 ways under a 2 × 2 cache
    {4, 2, {2, 2, 1}},  // two pool sets of 2 ways, one-way buckets (bucket spills)
    {4, 4, {4, 2, 4}},  // one pool set of 4 ways
    {8, 4, {}},         // no cache: two sets of 4 ways, nothing evicted
};

TEST(ReadClockWays, TinyPoolsMatchDjit) {
  Totals t;
  uint64_t seed = 0x5EAD'0000;
  for (const Shape& s : kShapes) {
    for (const size_t batch : {size_t{1}, size_t{16}, size_t{1024}}) {
      for (int i = 0; i < 4; ++i) {
        run(s, batch, seed++, i != 3, t);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  std::printf(
      "  %llu traces, %llu races, %llu of %llu accesses on chip, %llu read-clock spills, %llu lines "
      "re-imported, %llu further clocks re-imported (op 8)\n",
      static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
      static_cast<unsigned long long>(t.on_chip), static_cast<unsigned long long>(t.accesses),
      static_cast<unsigned long long>(t.clock_spills), static_cast<unsigned long long>(t.reimports),
      static_cast<unsigned long long>(t.more_clocks));
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.clock_spills, t.traces * 5) << "tiny pools must displace and evict clocks constantly";
  EXPECT_GT(t.more_clocks, 0u) << "lines with several clocks must go back with op 8";
}

// The same field traces decide more on chip with several clocks per line
// than with one (the version-5 rules), and both exactly.
TEST(ReadClockWays, SeveralClocksDecideMoreOnChip) {
  Totals one, several;
  for (uint64_t seed = 0x5EAD'1000; seed < 0x5EAD'1008; ++seed) {
    run({4, 1, {}}, 16, seed, true, one);
    run({4, 4, {}}, 16, seed, true, several);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("  on chip: one clock per line %llu, four %llu, of %llu accesses\n",
              static_cast<unsigned long long>(one.on_chip), static_cast<unsigned long long>(several.on_chip),
              static_cast<unsigned long long>(one.accesses));
  EXPECT_EQ(one.accesses, several.accesses);
  EXPECT_GT(several.on_chip, one.on_chip);
}

// Rounds that make partial clocks matter: two threads read a word
// concurrently (a clock), filler reads evict its line (the clock goes to
// the host), two other threads read it concurrently again (a partial clock)
// and then release a lock, more filler evicts it again (reason 6), and a
// writer takes the lock and writes a field of the word: ordered after the
// second readers, concurrent with the first ones unless it is one of them.
// The race with the first readers is only in the host's joined clock.
// Choices are random (threads, fields, filler, whether the writer locks).
class SpillRoundsTrace {
 public:
  SpillRoundsTrace(uint64_t seed, uint32_t threads, uint64_t rounds) : rng_(seed), threads_(threads), rounds_(rounds) {}
  bool next(Event& e) {
    while (pending_.empty() && round_ <= rounds_ + 1) refill();
    if (pending_.empty()) return false;
    e = pending_.front();
    pending_.erase(pending_.begin());
    return true;
  }

 private:
  static constexpr uint64_t kWords = 0x7100'0000, kFiller = 0x7200'0000, kLock = 0x20;
  uint64_t pick(uint64_t n) { return rng_() % n; }
  ThreadId worker() { return static_cast<ThreadId>(1 + pick(threads_ - 1)); }
  std::pair<ThreadId, ThreadId> two() {
    const ThreadId a = worker();
    ThreadId b = worker();
    while (b == a) b = worker();
    return {a, b};
  }
  void filler() {
    const ThreadId t = worker();
    const uint64_t n = pick(3) == 0 ? 0 : 6 + pick(12);  // sometimes none: the line stays
    for (uint64_t i = 0; i < n; ++i) pending_.push_back(Event::read(t, kFiller + 8 * pick(64), 8, 600 + t));
  }
  void refill() {
    if (round_ == 0) {
      for (uint64_t w = 0; w < rounds_; ++w) pending_.push_back(Event::write(0, kWords + 8 * w, 8, 1));
      for (uint64_t w = 0; w < 64; ++w) pending_.push_back(Event::write(0, kFiller + 8 * w, 8, 2));
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Fork, 0, t));
    } else if (round_ == rounds_ + 1) {
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Join, 0, t));
    } else {
      const uint64_t word = kWords + 8 * (round_ - 1);
      const auto [a, b] = two();
      pending_.push_back(Event::read(a, word, 8, 100 + a));
      pending_.push_back(Event::read(b, word, 8, 100 + b));
      filler();
      const auto [c, d] = two();
      for (const ThreadId t : {c, d}) pending_.push_back(Event::read(t, word, 8, 200 + t));
      for (const ThreadId t : {c, d}) {
        pending_.push_back(Event::sync(Op::Acquire, t, kLock));
        pending_.push_back(Event::sync(Op::Release, t, kLock));
      }
      filler();
      const ThreadId w = worker();
      const uint64_t size = uint64_t{1} << pick(4);
      const bool locked = pick(4) != 0;
      if (locked) pending_.push_back(Event::sync(Op::Acquire, w, kLock));
      pending_.push_back(Event::write(w, word + size * pick(8 / size), size, 300 + w));
      if (locked) pending_.push_back(Event::sync(Op::Release, w, kLock));
    }
    ++round_;
  }
  std::mt19937_64 rng_;
  uint32_t threads_;
  uint64_t rounds_, round_ = 0;
  std::vector<Event> pending_;
};

// Partial clocks (reason 6; docs/kernel-interface.md, "Partial read
// clocks"): a LASTWRITE byte (its clock went to the host) read concurrently
// with the read kept in R starts a clock of the reads since the spill
// instead of going to the host; writes of its bytes go to the host, and
// when it leaves the pool the host joins it into the clock it keeps. Spill
// rounds and field traces over more words than a 2 × 2 or 4 × 2 cache
// holds, against DJIT+, with partial clocks made and spilled. Mutants
// caught: the host replacing its clock with a reason-6 one instead of
// joining; the escalation record carrying a partial clock as the bytes'
// whole history.
TEST(ReadClockWays, PartialClocksAfterSpillsMatchDjit) {
  Totals t;
  uint64_t seed = 0x5EAD'2000;
  const std::vector<Shape> shapes{
      {2, 2, {2, 2, 4}},  // one pool set of 2 ways
      {4, 4, {2, 2, 4}},  // one pool set of 4 ways
      {8, 2, {4, 2, 1}},  // four pool sets of 2 ways, one-way buckets
  };
  for (const Shape& s : shapes) {
    for (const size_t batch : {size_t{1}, size_t{16}, size_t{1024}}) {
      for (int i = 0; i < 4; ++i) {
        driver::DeviceOptions o;
        o.software_slots = 8;
        o.software_clock_bits = 16;
        o.software_read_vcs = s.pool;
        o.software_read_vc_ways = s.ways;
        o.software_objects = 4;
        auto device = driver::make_software_device(o, s.cache);
        offload::OffloadOptions oo;
        oo.batch_words = batch;
        oo.bucket_bits = 2;
        SpillRoundsTrace trace(seed, 4 + static_cast<uint32_t>(seed % 5), 150);
        const GoldenRun r = run_with_golden(*device, oo, [&](Event& e) { return trace.next(e); });
        expect_same_races(r, "spill rounds, pool " + std::to_string(s.pool) + " of " + std::to_string(s.ways) +
                                 " ways, batches of " + std::to_string(batch) + ", seed " + std::to_string(seed));
        if (::testing::Test::HasFatalFailure()) return;
        ++seed;
        ++t.traces;
        t.races += r.golden.size();
        t.accesses += r.stats.access_commands;
        t.on_chip += r.stats.on_chip();
        t.clock_spills += r.stats.read_clock_spills;
        t.partial_spills += r.stats.partial_read_clock_spills;
        const uint64_t words = 24 + seed % 24;
        run(s, batch, seed++, true, t, words);  // and a field trace
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  std::printf("  %llu traces, %llu races, %llu of %llu accesses on chip, %llu read-clock spills (%llu partial)\n",
              static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
              static_cast<unsigned long long>(t.on_chip), static_cast<unsigned long long>(t.accesses),
              static_cast<unsigned long long>(t.clock_spills), static_cast<unsigned long long>(t.partial_spills));
  EXPECT_GT(t.races, 0u);
  EXPECT_GT(t.partial_spills, t.traces) << "LASTWRITE lines read concurrently must start partial clocks";
}

}  // namespace
}  // namespace raceaccel::test
