// Atomic accesses checked on chip (register map version 7, ops 9 and 10;
// docs/kernel-interface.md, "Atomic accesses on chip") on the software
// model against DJIT+: traces whose few words are accessed atomically and
// plainly by several threads at once — atomic-vs-plain races both ways,
// release stores and RMWs publishing plain data to acquire loads, relaxed
// accesses with fences, mixed sizes and misaligned fields, frees — on tiny
// caches, pools and bucket tables, with more threads than slots, at several
// batch sizes; on a kernel with ops 9-10 and on one without (the host then
// checks every atomic access, as with the RTL today). Every trace must give
// exactly DJIT+'s races.
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

// Workers on a table of a few words: each step is a plain read or write, an
// atomic load, store or RMW (random order), a fence, a publication (plain
// writes, then a release store or RMW of a flag word; or an acquire load of
// it, then plain reads), a locked plain access, or a free and rewrite of a
// field. Fields are 1, 2, 4 or 8 bytes, usually aligned, now and then
// crossing into the next word; atomic and plain accesses land on the same
// bytes all the time.
class AtomicMixTrace {
 public:
  AtomicMixTrace(uint64_t seed, uint32_t threads, uint64_t words, uint64_t events)
      : rng_(seed), threads_(threads), words_(words), events_(events) {}
  bool next(Event& e) {
    while (pending_.empty() && step_ <= events_ + 1) refill();
    if (pending_.empty()) return false;
    e = pending_.front();
    pending_.erase(pending_.begin());
    return true;
  }

 private:
  static constexpr uint64_t kTable = 0x9000'0000;
  uint64_t pick(uint64_t n) { return rng_() % n; }
  std::pair<uint64_t, uint64_t> field() {
    const uint64_t size = uint64_t{1} << pick(4);
    const uint64_t misaligned = pick(10) == 0 ? 1 + pick(7) : 0;  // sometimes across two granules
    return {kTable + 8 * pick(words_) + size * pick(8 / size) + misaligned, size};
  }
  MemoryOrder order() { return static_cast<MemoryOrder>(pick(kMemoryOrderCount)); }
  void refill() {
    if (step_ == 0) {
      for (uint64_t w = 0; w < words_ + 1; ++w) pending_.push_back(Event::write(0, kTable + 8 * w, 8, 1));
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Fork, 0, t));
    } else if (step_ == events_ + 1) {
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Join, 0, t));
      for (uint64_t w = 0; w < words_ + 1; ++w) pending_.push_back(Event::read(0, kTable + 8 * w, 8, 2));
    } else {
      const auto t = static_cast<ThreadId>(1 + pick(threads_ - 1));
      const auto [addr, size] = field();
      const uint64_t site = 1000 * (1 + pick(50)) + t;
      const uint64_t action = pick(100);
      if (action < 22) {
        pending_.push_back(Event::read(t, addr, size, site));
      } else if (action < 30) {
        pending_.push_back(Event::write(t, addr, size, site));
      } else if (action < 45) {
        pending_.push_back(Event::atomic(Op::AtomicLoad, t, addr, size, order(), site));
      } else if (action < 55) {
        pending_.push_back(Event::atomic(Op::AtomicStore, t, addr, size, order(), site));
      } else if (action < 65) {
        pending_.push_back(Event::atomic(Op::AtomicRmw, t, addr, size, order(), site));
      } else if (action < 70) {
        pending_.push_back(Event::fence(t, order(), site));
      } else if (action < 80) {  // publish: plain data, then a release of the flag word
        const uint64_t flag = kTable + 8 * pick(words_);
        pending_.push_back(Event::write(t, addr, size, site));
        pending_.push_back(
            Event::atomic(pick(2) == 0 ? Op::AtomicStore : Op::AtomicRmw, t, flag, 8, MemoryOrder::Release, site + 1));
      } else if (action < 90) {  // consume: an acquire of the flag word, then plain reads
        const uint64_t flag = kTable + 8 * pick(words_);
        pending_.push_back(Event::atomic(Op::AtomicLoad, t, flag, 8, MemoryOrder::Acquire, site));
        pending_.push_back(Event::read(t, addr, size, site + 1));
      } else if (action < 97) {
        pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(pick(2) == 0 ? Event::write(t, addr, size, site) : Event::read(t, addr, size, site));
        pending_.push_back(Event::sync(Op::Release, t, 0x10));
      } else {
        pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::range(Op::Free, t, addr, size, site));
        pending_.push_back(Event::range(Op::Alloc, t, addr, size, site));
        pending_.push_back(Event::write(t, addr, size, site + 1));
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

struct Config {
  const char* name;
  unsigned slots, pool, pool_ways, bucket_bits;
  driver::CacheShape cache;
};

struct Totals {
  uint64_t traces = 0, races = 0, atomic_races = 0, accesses = 0, on_chip = 0, atomic_commands = 0,
           atomic_escalations = 0, conflicts = 0, device_races = 0, reimports = 0;
};

GoldenRun run_trace(const Config& k, bool atomics, size_t batch, uint64_t seed, bool mix) {
  driver::DeviceOptions o;
  o.software_slots = k.slots;
  o.software_clock_bits = 16;
  o.software_read_vcs = k.pool;
  o.software_read_vc_ways = k.pool_ways;
  o.software_objects = 4;
  o.software_atomic_access = atomics;
  auto device = driver::make_software_device(o, k.cache);
  offload::OffloadOptions oo;
  oo.batch_words = batch;
  oo.bucket_bits = k.bucket_bits;
  if (mix) {
    AtomicMixTrace trace(seed, 2 + static_cast<uint32_t>(seed % 6), 2 + seed % 3, 1200);
    return run_with_golden(*device, oo, [&](Event& e) { return trace.next(e); });
  }
  GeneratorOptions g = random_trace_options(seed, 800, 2000);
  g.atomic_mixing = true;
  TraceGenerator generator(g);
  return run_with_golden(*device, oo, [&](Event& e) { return generator.next(e); });
}

void add(const GoldenRun& r, Totals& t) {
  ++t.traces;
  t.races += r.golden.size();
  for (const Race& race : r.golden) t.atomic_races += race.atomic || race.prev_atomic ? 1 : 0;
  t.accesses += r.stats.access_commands;
  t.on_chip += r.stats.on_chip();
  t.atomic_commands += r.stats.atomic_commands;
  t.atomic_escalations += r.stats.causes[static_cast<size_t>(offload::EscalationCause::Atomic)];
  t.conflicts += r.stats.atomic_conflicts;
  t.device_races += r.stats.device_races;
  t.reimports += r.stats.reimports;
}

// Tiny shapes: fewer slots than threads (up to 7), 1 × 1 and 2 × 2 caches,
// pools of 0–4 entries with one clock or several per line, 2–4 buckets.
const std::vector<Config> kConfigs{
    {"4 slots, 2 x 2 cache, pool 2, 4 buckets of 4 ways", 4, 2, 1, 2, {2, 2, 4}},
    {"3 slots, 1 x 1 cache, pool 1, 2 buckets of 1 way", 3, 1, 1, 1, {1, 1, 1}},
    {"4 slots, 2 x 2 cache, no pool, 2 buckets of 2 ways", 4, 0, 1, 1, {2, 2, 2}},
    {"8 slots, 2 x 2 cache, pool of 4 ways, 4 buckets of 1 way", 8, 4, 4, 2, {1, 2, 1}},
    {"8 slots, no cache, pool 2", 8, 2, 1, 2, {}},
};

void run_suite(bool atomics, Totals& t) {
  uint64_t seed = atomics ? 0xA70'0000 : 0xA70'1000;
  for (const Config& k : kConfigs) {
    for (const size_t batch : {size_t{1}, size_t{16}, size_t{1024}}) {
      for (int i = 0; i < 4; ++i, ++seed) {
        const bool mix = i != 3;
        const GoldenRun r = run_trace(k, atomics, batch, seed, mix);
        expect_same_races(r, std::string(k.name) + (atomics ? ", ops 9-10" : ", no ops 9-10") + ", batches of " +
                                 std::to_string(batch) + (mix ? ", atomic mix" : ", generated") + ", seed " +
                                 std::to_string(seed));
        if (::testing::Test::HasFatalFailure()) return;
        add(r, t);
      }
    }
  }
}

void print(const char* what, const Totals& t) {
  std::printf(
      "  %s: %llu traces, %llu races (%llu with an atomic side), %llu of %llu accesses on chip, %llu atomic "
      "commands, %llu escalated for atomics, %llu plain commands forced by a conflict, %llu races found on chip, "
      "%llu lines re-imported\n",
      what, static_cast<unsigned long long>(t.traces), static_cast<unsigned long long>(t.races),
      static_cast<unsigned long long>(t.atomic_races), static_cast<unsigned long long>(t.on_chip),
      static_cast<unsigned long long>(t.accesses), static_cast<unsigned long long>(t.atomic_commands),
      static_cast<unsigned long long>(t.atomic_escalations), static_cast<unsigned long long>(t.conflicts),
      static_cast<unsigned long long>(t.device_races), static_cast<unsigned long long>(t.reimports));
}

TEST(AtomicAccess, TinyShapesMatchDjitWithAtomicsOnChip) {
  Totals t;
  run_suite(true, t);
  print("ops 9-10", t);
  EXPECT_GT(t.atomic_races, t.traces) << "the traces must race between atomic and plain accesses";
  EXPECT_GT(t.conflicts, 0u) << "plain accesses concurrent with atomic ones must go to the host";
  EXPECT_LE(t.atomic_escalations, t.conflicts) << "atomic accesses themselves are never forced for being atomic";
}

TEST(AtomicAccess, TinyShapesMatchDjitWithoutOps9And10) {
  Totals t;
  run_suite(false, t);
  print("no ops 9-10", t);
  EXPECT_GT(t.atomic_races, t.traces);
  EXPECT_GE(t.atomic_escalations, t.atomic_commands) << "every atomic access is forced without ops 9-10";
}

// The same traces decide more on chip when the chip checks atomic accesses,
// with the same races.
TEST(AtomicAccess, OpsNineAndTenDecideMoreOnChip) {
  Totals with, without;
  const Config k{"8 slots, 4 x 2 cache, pool 4", 8, 4, 1, 4, {4, 2, 4}};
  for (uint64_t seed = 0xA70'2000; seed < 0xA70'2008; ++seed) {
    const GoldenRun a = run_trace(k, true, 256, seed, true);
    const GoldenRun b = run_trace(k, false, 256, seed, true);
    expect_same_races(a, "ops 9-10, seed " + std::to_string(seed));
    expect_same_races(b, "no ops 9-10, seed " + std::to_string(seed));
    if (::testing::Test::HasFatalFailure()) return;
    add(a, with);
    add(b, without);
  }
  print("with", with);
  print("without", without);
  EXPECT_EQ(with.accesses, without.accesses);
  EXPECT_GT(with.on_chip, 2 * without.on_chip);
  EXPECT_GT(with.device_races, without.device_races) << "atomic-vs-plain races are found on chip";
}

// ---- directed traces --------------------------------------------------------

GoldenRun directed(const std::vector<Event>& events, bool atomics = true, size_t batch = 64 * 1024) {
  driver::DeviceOptions o;
  o.software_slots = 4;
  o.software_atomic_access = atomics;
  auto device = driver::make_software_device(o);
  offload::OffloadOptions oo;
  oo.batch_words = batch;
  size_t i = 0;
  return run_with_golden(*device, oo, [&](Event& e) {
    if (i == events.size()) return false;
    e = events[i++];
    return true;
  });
}

constexpr uint64_t kX = 0x5000, kFlag = 0x5008;

// A plain write, then a concurrent atomic store of the same bytes: the chip
// finds the write-write race against the line's last write.
TEST(AtomicAccess, AtomicStoreAfterAConcurrentPlainWriteRacesOnChip) {
  const GoldenRun r = directed({Event::sync(Op::Fork, 0, 1), Event::write(0, kX, 4, 10),
                                Event::atomic(Op::AtomicStore, 1, kX, 4, MemoryOrder::Release, 11)});
  expect_same_races(r, "plain write, atomic store");
  ASSERT_EQ(r.offload.size(), 4u);
  EXPECT_EQ(r.offload[0].kind, RaceKind::WriteWrite);
  EXPECT_TRUE(r.offload[0].atomic);
  EXPECT_EQ(r.stats.device_races, 4u);
  EXPECT_EQ(r.stats.on_chip(), r.stats.access_commands);
}

// An atomic load checks the last plain write (write-read), and an atomic
// RMW checks the plain reads (read-write), both on chip.
TEST(AtomicAccess, AtomicLoadAndRmwAreCheckedAgainstPlainHistoryOnChip) {
  const GoldenRun r = directed({Event::sync(Op::Fork, 0, 1), Event::write(0, kX, 1, 10), Event::read(0, kX + 4, 1, 12),
                                Event::atomic(Op::AtomicLoad, 1, kX, 1, MemoryOrder::Acquire, 11),
                                Event::atomic(Op::AtomicRmw, 1, kX + 4, 1, MemoryOrder::Relaxed, 13)});
  expect_same_races(r, "atomic load, atomic RMW");
  ASSERT_EQ(r.offload.size(), 2u);
  EXPECT_EQ(r.offload[0].kind, RaceKind::WriteRead);
  EXPECT_EQ(r.offload[1].kind, RaceKind::ReadWrite);
  EXPECT_EQ(r.stats.device_races, 2u);
}

// Atomic accesses of the same bytes by unordered threads never race, and
// are all decided on chip.
TEST(AtomicAccess, AtomicAccessesNeverRaceWithEachOther) {
  std::vector<Event> events{Event::sync(Op::Fork, 0, 1), Event::sync(Op::Fork, 0, 2)};
  for (ThreadId t : {0u, 1u, 2u, 1u, 0u}) {
    events.push_back(Event::atomic(Op::AtomicRmw, t, kX, 8, MemoryOrder::Relaxed, 20 + t));
    events.push_back(Event::atomic(Op::AtomicStore, t, kX + 2, 2, MemoryOrder::Relaxed, 30 + t));
    events.push_back(Event::atomic(Op::AtomicLoad, t, kX, 4, MemoryOrder::Relaxed, 40 + t));
  }
  const GoldenRun r = directed(events);
  EXPECT_TRUE(r.golden.empty());
  EXPECT_TRUE(r.offload.empty());
  EXPECT_EQ(r.stats.on_chip(), r.stats.access_commands);
  EXPECT_EQ(r.stats.atomic_conflicts, 0u);
}

// A relaxed atomic store, then a plain read of the bytes by another thread:
// the host finds the conflict before it sends the read, which goes forced,
// and reports the atomic store as the earlier access (its thread, epoch and
// site), as DJIT+ does.
TEST(AtomicAccess, PlainReadConcurrentWithAnAtomicStoreNamesTheStore) {
  const GoldenRun r =
      directed({Event::sync(Op::Fork, 0, 1), Event::atomic(Op::AtomicStore, 1, kX, 8, MemoryOrder::Relaxed, 77),
                Event::read(0, kX + 2, 2, 78)});
  expect_same_races(r, "atomic store, plain read");
  ASSERT_EQ(r.offload.size(), 2u);
  EXPECT_EQ(r.offload[0].kind, RaceKind::WriteRead);
  EXPECT_TRUE(r.offload[0].prev_atomic);
  EXPECT_EQ(r.offload[0].prev_site, 77u);
  EXPECT_EQ(r.offload[0].prev_tid, 1u);
  EXPECT_EQ(r.stats.atomic_conflicts, 1u);
  EXPECT_EQ(r.stats.host_races, 2u);
}

// Release/acquire publication: plain data written before a release store
// and read after the acquire load that reads from it do not race, and
// every access is decided on chip (the load's acquired clock reaches the
// engine's row before its access part).
TEST(AtomicAccess, ReleaseAcquirePublicationIsDecidedOnChip) {
  const GoldenRun r = directed({Event::sync(Op::Fork, 0, 1), Event::write(0, kX, 8, 1),
                                Event::atomic(Op::AtomicStore, 0, kFlag, 8, MemoryOrder::Release, 2),
                                Event::atomic(Op::AtomicLoad, 1, kFlag, 8, MemoryOrder::Acquire, 3),
                                Event::read(1, kX, 8, 4), Event::write(1, kX, 8, 5), Event::write(1, kFlag, 8, 6)});
  EXPECT_TRUE(r.golden.empty());
  EXPECT_TRUE(r.offload.empty());
  EXPECT_EQ(r.stats.on_chip(), r.stats.access_commands);
}

// A plain write after an atomic load it is not ordered after races with the
// load (read-write); ordered by a join it does not. Both are exact, and a
// free ends the atomic history.
TEST(AtomicAccess, PlainWriteChecksAtomicReadsAndFreeForgetsThem) {
  const GoldenRun r =
      directed({Event::sync(Op::Fork, 0, 1), Event::atomic(Op::AtomicLoad, 1, kX, 4, MemoryOrder::Relaxed, 50),
                Event::write(0, kX, 1, 51), Event::sync(Op::Join, 0, 1), Event::write(0, kX + 1, 1, 52),
                Event::sync(Op::Fork, 0, 2), Event::atomic(Op::AtomicLoad, 2, kX + 2, 1, MemoryOrder::Relaxed, 53),
                Event::range(Op::Free, 0, kX, 8, 54), Event::write(0, kX + 2, 1, 55)});
  expect_same_races(r, "atomic load, plain writes, free");
  ASSERT_EQ(r.offload.size(), 1u);
  EXPECT_EQ(r.offload[0].addr, kX);
  EXPECT_EQ(r.offload[0].kind, RaceKind::ReadWrite);
  EXPECT_TRUE(r.offload[0].prev_atomic);
}

// A race learnt late (its batch is answered after later events were sent)
// lets the host drop the raced byte's atomic history — but not history
// recorded after a free of the byte that followed the race: here x races
// (two unordered plain writes), is freed, and thread 1's atomic store of it
// comes before the race is answered; thread 0's later plain read races with
// that store. Paddings move the batch boundary over the events.
TEST(AtomicAccess, ARaceLearntLateKeepsHistoryRecordedAfterAFree) {
  uint64_t cases = 0;
  for (const size_t batch : {size_t{8}, size_t{16}, size_t{32}}) {
    for (unsigned pad = 0; pad < 24; ++pad) {
      std::vector<Event> events{Event::sync(Op::Fork, 0, 1), Event::write(1, kX + 8, 8, 1)};
      for (unsigned i = 0; i < pad; ++i) events.push_back(Event::write(1, 0x8000 + 8 * i, 8, 2));
      events.push_back(Event::write(0, kX, 1, 3));
      events.push_back(Event::write(1, kX, 1, 4));  // races
      events.push_back(Event::range(Op::Free, 0, kX, 16, 5));
      events.push_back(Event::range(Op::Alloc, 0, kX, 16, 6));
      events.push_back(Event::atomic(Op::AtomicStore, 1, kX, 1, MemoryOrder::Relaxed, 7));
      for (unsigned i = 0; i < 12; ++i) events.push_back(Event::write(0, 0x9000 + 8 * i, 8, 8));
      events.push_back(Event::read(0, kX, 1, 9));  // races with the store
      const GoldenRun r = directed(events, true, batch);
      ASSERT_EQ(r.golden.size(), 2u);
      expect_same_races(r, "batches of " + std::to_string(batch) + ", padding " + std::to_string(pad));
      ++cases;
    }
  }
  EXPECT_EQ(cases, 72u);
}

}  // namespace
}  // namespace raceaccel::test
