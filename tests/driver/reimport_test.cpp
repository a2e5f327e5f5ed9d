// Re-import (docs/kernel-interface.md, "Re-import"): a line the host took
// over goes back to the device with an import-line command when its exact
// state fits a line again. These tests force escalation and re-import
// (tiny batches, so the host hears of escalations early; small caches and
// a small read-VC pool, so lines and clocks also leave the chip; atomics
// and threads beyond the slots, so lines go to the host) and require
// exactly DJIT+'s races, with lines really going back and forth.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>

#include "../common/race_keys.hpp"
#include "../common/random_trace_options.hpp"
#include "detect/djit.hpp"
#include "driver/records.hpp"
#include "driver/software/software_device.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

struct DeviceSetup {
  unsigned slots = 8, clock_bits = 16, read_vcs = 2;
  driver::CacheShape cache{4, 2};
  size_t batch_words = 64;
  bool reimport = true;
};

struct Outcome {
  std::vector<Race> golden, offload;
  offload::OffloadStats stats;
};

Outcome run(const DeviceSetup& s, TraceGenerator& generator) {
  driver::DeviceOptions options;
  options.software_slots = s.slots;
  options.software_clock_bits = s.clock_bits;
  options.software_read_vcs = s.read_vcs;
  options.software_objects = 4;
  auto device = driver::make_software_device(options, s.cache);
  offload::OffloadOptions oo;
  oo.batch_words = s.batch_words;
  oo.reimport = s.reimport;
  offload::OffloadChecker checker(*device, oo);
  DjitDetector golden;
  Event e;
  for (uint64_t index = 0; generator.next(e); ++index) {
    golden.process(e, index);
    checker.process(e, index);
  }
  checker.finish();
  return {golden.races(), checker.races(), checker.stats()};
}

void expect_exact(const Outcome& o, const std::string& what) {
  ASSERT_EQ(race_keys(o.golden), race_keys(o.offload)) << what;
  std::vector<Race> g = o.golden, d = o.offload;
  const auto by_key = [](const Race& a, const Race& b) {
    return std::tie(a.addr, a.event) < std::tie(b.addr, b.event);
  };
  std::sort(g.begin(), g.end(), by_key);
  std::sort(d.begin(), d.end(), by_key);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i].kind == RaceKind::ReadWrite) continue;  // any concurrent reader is a correct answer
    EXPECT_EQ(std::tie(g[i].prev_tid, g[i].prev_clock, g[i].prev_site),
              std::tie(d[i].prev_tid, d[i].prev_clock, d[i].prev_site))
        << what << " race " << i;
  }
}

GeneratorOptions trace(uint64_t seed) { return test::random_trace_options(seed, 2000, 5000); }

// Configurations that force escalation and then re-import: a 4 × 2 cache
// with a 2-entry pool (evictions spill read clocks; imports with shared
// bytes take entries from other lines), a 1 × 1 cache with one entry
// (every miss evicts), no pool (only lines without shared bytes go back),
// and batches from the minimum to 4096 words (the host re-imports only
// what it has heard of).
TEST(Reimport, ForcedEscalationAndReimportMatchDjit) {
  struct Config {
    const char* name;
    DeviceSetup setup;
  };
  std::vector<Config> configs;
  for (const size_t batch : {size_t{1}, size_t{64}, size_t{4096}}) {
    DeviceSetup small;
    small.batch_words = batch;
    configs.push_back({"4x2 cache, 2-entry pool", small});
    DeviceSetup one = small;
    one.cache = {1, 1};
    one.read_vcs = 1;
    configs.push_back({"1x1 cache, 1-entry pool", one});
    DeviceSetup none = small;
    none.read_vcs = 0;
    configs.push_back({"4x2 cache, no pool", none});
  }
  uint64_t reimports = 0, with_clock = 0, read_clock_spills = 0, on_chip = 0, on_chip_without = 0;
  for (const Config& c : configs) {
    for (uint64_t seed = 0x1E1A'0000; seed < 0x1E1A'0000 + 16; ++seed) {
      const GeneratorOptions o = trace(seed);
      TraceGenerator generator(o);
      const Outcome r = run(c.setup, generator);
      const std::string what = std::string(c.name) + ", batches of " + std::to_string(c.setup.batch_words) +
                               " words, seed " + std::to_string(seed) + ", " + std::to_string(o.threads) + " threads";
      expect_exact(r, what);
      if (::testing::Test::HasFatalFailure()) return;
      reimports += r.stats.reimports;
      with_clock += r.stats.reimported_read_clocks;
      read_clock_spills += r.stats.read_clock_spills;
      on_chip += r.stats.on_chip();
      if (c.setup.batch_words == 64) {
        DeviceSetup off = c.setup;
        off.reimport = false;
        TraceGenerator again(o);
        const Outcome without = run(off, again);
        expect_exact(without, what + ", no re-import");
        EXPECT_EQ(without.stats.reimports, 0u);
        on_chip_without += without.stats.on_chip();
      }
    }
  }
  EXPECT_GT(reimports, 1000u) << "lines must go back to the device for this test to mean anything";
  EXPECT_GT(with_clock, 50u) << "lines with shared bytes must go back with their read clock";
  EXPECT_GT(read_clock_spills, 100u);
  EXPECT_GT(on_chip, 0u);
  EXPECT_GT(on_chip_without, 0u);
  ::testing::Test::RecordProperty("reimports", static_cast<int>(reimports));
  ::testing::Test::RecordProperty("reimported_read_clocks", static_cast<int>(with_clock));
}

// The same traces at 64-word batches decide more accesses on chip with
// re-import than without (the point of the feature).
TEST(Reimport, MoreAccessesDecidedOnChip) {
  uint64_t with = 0, without = 0;
  for (uint64_t seed = 0x1E1B'0000; seed < 0x1E1B'0000 + 4; ++seed) {
    for (const bool on : {true, false}) {
      DeviceSetup s;
      s.reimport = on;
      s.cache = {64, 4};
      s.read_vcs = 16;
      TraceGenerator generator(trace(seed));
      const Outcome r = run(s, generator);
      expect_exact(r, "seed " + std::to_string(seed));
      (on ? with : without) += r.stats.on_chip();
    }
  }
  EXPECT_GT(with, without + without / 50) << "re-import must keep more accesses on chip";
}

// A directed trace: x goes to the host (an atomic store), a plain write and
// a read by another thread are checked there, then x goes back to the
// device, which must find the read-write race with the read the host
// recorded. Every launch holds only a few commands, so the host hears of
// each escalation before the next event.
TEST(Reimport, ImportedReadIsCheckedOnChip) {
  const uint64_t x = 0x1000;
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::atomic(Op::AtomicStore, 1, x, 8, MemoryOrder::Relaxed),  // forced (no ops 9-10): the host owns x
      Event::write(1, x, 8),                                          // on the host: every atomic access is before it
      Event::sync(Op::Release, 1, 7),
      Event::sync(Op::Acquire, 0, 7),
      Event::read(0, x, 8),  // on the host (or on chip if x is back already): R = thread 0's epoch
      Event::read(0, x, 8),  // same epoch; x is back on the device by now
      Event::read(0, x, 8),
      Event::write(1, x, 8),  // races with thread 0's read: found on chip from the imported R
  };
  for (const size_t batch : {size_t{1}, size_t{8}}) {
    driver::DeviceOptions options;
    options.software_slots = 4;
    options.software_clock_bits = 16;
    options.software_read_vcs = 0;
    options.software_atomic_access = false;  // a kernel without ops 9-10: the atomic store is forced
    auto device = driver::make_software_device(options, {4, 2});
    offload::OffloadOptions oo;
    oo.batch_words = batch;
    offload::OffloadChecker checker(*device, oo);
    DjitDetector golden;
    for (uint64_t i = 0; i < events.size(); ++i) {
      golden.process(events[i], i);
      checker.process(events[i], i);
    }
    checker.finish();
    ASSERT_EQ(golden.races().size(), 8u);  // one per byte
    EXPECT_EQ(golden.races()[0].kind, RaceKind::ReadWrite);
    expect_exact({golden.races(), checker.races(), checker.stats()}, "batch " + std::to_string(batch));
    const offload::OffloadStats s = checker.stats();
    EXPECT_GE(s.reimports, 1u) << "batch " << batch;
    EXPECT_EQ(s.device_races, 8u) << "the race must be found on chip (batch " << batch << ")";
  }
}

// A command on a host-owned granule that is still in flight when a batch
// is answered (the one whose word did not fit, sent after the launch) keeps
// the granule with the host: importing then would hand the device a line
// without that command's effect. Here thread 0's write of x goes to the
// host (x is host-owned after an atomic store), thread 1's read of x races
// with it and marks x's bytes raced; padding moves the batch boundary so
// that for some padding the write is answered by the launch the read's
// word triggers. Importing x before thread 1's second read would lose the
// raced flags and report the race twice.
TEST(Reimport, CommandInFlightAtABatchBoundaryKeepsTheLineOnTheHost) {
  const uint64_t x = 0x1000;
  uint64_t reimports = 0;
  for (unsigned pad = 0; pad < 12; ++pad) {
    std::vector<Event> events = {
        Event::sync(Op::Fork, 0, 1), Event::atomic(Op::AtomicStore, 0, x, 8, MemoryOrder::Relaxed),  // the host owns x
    };
    for (unsigned i = 0; i < pad; ++i) events.push_back(Event::write(0, 0x2000 + 8 * i, 8));
    events.push_back(Event::write(0, x, 8));  // on the host; x fits a line again
    events.push_back(Event::read(1, x, 8));   // races with it; in flight at a launch, for some padding
    for (unsigned i = 0; i < 8; ++i) {        // the next commands on x, between commands on other granules
      events.push_back(Event::write(1, 0x3000 + 8 * i, 8));
      events.push_back(Event::read(1, x, 8));
    }
    driver::DeviceOptions options;
    options.software_slots = 4;
    options.software_clock_bits = 16;
    options.software_read_vcs = 0;
    auto device = driver::make_software_device(options, {4, 2});
    offload::OffloadOptions oo;
    oo.batch_words = 1;  // the minimum: a launch every few commands
    offload::OffloadChecker checker(*device, oo);
    DjitDetector golden;
    for (uint64_t i = 0; i < events.size(); ++i) {
      golden.process(events[i], i);
      checker.process(events[i], i);
    }
    checker.finish();
    ASSERT_EQ(golden.races().size(), 8u);
    expect_exact({golden.races(), checker.races(), checker.stats()}, "padding " + std::to_string(pad));
    reimports += checker.stats().reimports;
  }
  EXPECT_GT(reimports, 0u);
}

// The import-line data words: the line as one bit string over
// ceil(LineW / 128) words, round trip for both line formats.
TEST(Reimport, LineWordsRoundTrip) {
  for (const driver::LineShape shape : {driver::LineShape{64, 32, 16}, driver::LineShape{8, 16, 0}}) {
    driver::Line line;
    line.shared = shape.read_vcs > 0 ? 0xA5 : 0;
    for (unsigned b = 0; b < 8; ++b) {
      line.bytes[b] = {b % 3 == 0, b, 1000u + b, 7 - b, 2000u + b};
    }
    std::vector<std::byte> words(size_t{shape.line_words()} * 16);
    driver::encode_line_words(line, shape, words);
    EXPECT_EQ(driver::decode_line_words(words, shape), line);
    EXPECT_THROW(driver::encode_line_words(line, shape, std::span<std::byte>(words).first(16)), std::invalid_argument);
  }
}

}  // namespace
}  // namespace raceaccel::test

namespace raceaccel::test {
namespace {

// A spill of a granule's INSOFTWARE placeholder whose record arrives after
// the host re-imported the granule (the eviction came from a command on
// another granule sent before the import, in the same batch) says nothing
// and must be ignored: adopting it made the host a second owner with a
// fresh line, which later kept its empty copy over the line the chip
// escalated, and missed the race below. One-line cache, one-way buckets,
// 2 slots: C fills A's bucket; thread 2 (no slot) writes A, forced, so the
// host owns A; thread 0, ordered after it by a lock, writes A there (W is
// thread 0's: the line fits the chip again); B's miss evicts A's
// placeholder into the full bucket (spill), and the read of A re-imports
// it right behind, in the same batch for some batch sizes; thread 2's
// second write hands A to the host again and must race with thread 0's
// write and read.
TEST(Reimport, StalePlaceholderSpillAfterAnImportIsIgnored) {
  constexpr unsigned kBucketBits = 1;
  const uint64_t a = 0x40000;
  uint64_t b = a + 8, c = a + 8;
  while (driver::bucket_of(c >> 3, kBucketBits) != driver::bucket_of(a >> 3, kBucketBits)) c += 8;
  b = c + 8;
  while (driver::bucket_of(b >> 3, kBucketBits) != driver::bucket_of(a >> 3, kBucketBits)) b += 8;
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),    Event::sync(Op::Fork, 0, 2),  // no slot: its accesses are forced
      Event::write(0, c, 8, 1),                                     // C will fill A's bucket
      Event::write(2, a, 8, 2),                                     // forced: the host owns A
      Event::sync(Op::Release, 2, 9),                               //
      Event::sync(Op::Acquire, 0, 9),                               //
      Event::write(0, a, 8, 3),                                     // on the host: W = thread 0's, the line fits again
      Event::write(0, b, 8, 4),                                     // evicts A's placeholder: spill (bucket full)
      Event::read(0, a, 8, 5),                                      // A goes back first (op 7)
      Event::write(2, a, 8, 6),                                     // forced: A to the host again; races
  };
  uint64_t stale = 0;
  for (size_t batch = 1; batch <= 48; ++batch) {
    driver::DeviceOptions options;
    options.software_slots = 2;
    options.software_clock_bits = 16;
    options.software_read_vcs = 0;
    auto device = driver::make_software_device(options, {1, 1, 1});
    offload::OffloadOptions oo;
    oo.batch_words = batch;
    oo.bucket_bits = kBucketBits;
    offload::OffloadChecker checker(*device, oo);
    DjitDetector golden;
    for (uint64_t i = 0; i < events.size(); ++i) {
      golden.process(events[i], i);
      checker.process(events[i], i);
    }
    checker.finish();
    ASSERT_EQ(golden.races().size(), 8u);
    expect_exact({golden.races(), checker.races(), checker.stats()}, "batch " + std::to_string(batch));
    stale += checker.stats().stale_placeholder_spills;
  }
  EXPECT_GT(stale, 0u) << "some batch size must put the spill and the import in one batch";
}

}  // namespace
}  // namespace raceaccel::test
