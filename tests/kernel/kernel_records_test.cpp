// Directed tests of what rac_kernel writes to device memory: race records
// field by field, escalation records, the bucket table and spill records
// (on a 2 x 2 cache with 2 buckets, where nearly every write-back
// conflicts), clear_state, and bus robustness under random latency and
// back-pressure seeds.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "Vrac_kernel_default.h"
#include "Vrac_kernel_tiny.h"
#include "kernel_harness.hpp"

namespace raceaccel::kernel_test {
namespace {

const driver::LineShape kShape{.slots = 8, .clock_bits = 32};

sim::KernelSimOptions options(uint64_t seed, unsigned stall = 20, unsigned latency = 8) {
  sim::KernelSimOptions o;
  o.timing.seed = seed;
  o.timing.max_latency = latency;
  o.timing.stall_percent = stall;
  o.idle_percent = 10;
  o.trace_tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return o;
}

std::vector<uint64_t> row(std::initializer_list<std::pair<unsigned, uint64_t>> lanes) {
  std::vector<uint64_t> out(kShape.slots, 0);
  for (const auto& [lane, clock] : lanes) out[lane] = clock;
  return out;
}

// A granule of the default model's cache set `set` (256 sets: the low 8
// bits XOR the tag folded bit-reversed, as rac_check_engine's set_of).
uint64_t granule_in_set(uint64_t set, uint64_t tag) {
  uint64_t fold = 0;
  for (unsigned i = 0; i < 53; ++i) fold ^= ((tag >> i) & 1u) << (7 - i % 8);
  return (tag << 8) | ((set ^ fold) & 0xFF);
}

driver::Line line_of(const EscalationRecord& r) {
  return driver::decode_line(std::span<const std::byte, driver::kLineBytes>(r.line), kShape);
}

TEST(KernelRecords, RaceRecordFields) {
  sim::KernelSim<Vrac_kernel_default> k(options(21));
  Batch b(kShape);
  b.set_row(0, row({{0, 3}}));
  b.set_row(2, row({{2, 7}}));
  b.set_row(5, row({{5, 0xFFFFFFFFu}}));
  const uint64_t g = 0x1234'5678'9ABCull;  // granule above 2^32: all 8 record bytes matter
  b.access(regs::kOpWrite, 0, g, 0xFF);
  const uint32_t wr = b.access(regs::kOpRead, 2, g, 0x0C);       // write-read on bytes 2, 3
  const uint32_t ww = b.access(regs::kOpWrite, 2, g, 0x03);      // write-write on bytes 0, 1
  b.access(regs::kOpRead, 5, g + 1, 0xF0);                       // R = (5, 2^32 - 1) on bytes 4..7
  const uint32_t rw = b.access(regs::kOpWrite, 2, g + 1, 0xC0);  // read-write on bytes 6, 7
  const BatchResult r = run_batch(k, b, Buffers{});
  ASSERT_EQ(r.status, regs::kStatusOk);
  ASSERT_EQ(r.races.size(), 3u);
  EXPECT_TRUE(r.escalations.empty());

  EXPECT_EQ(r.races[0].word, wr);
  EXPECT_EQ(r.races[0].granule, g);
  EXPECT_EQ(r.races[0].mask, 0x0Cu);
  for (unsigned lane : {2u, 3u}) {
    EXPECT_EQ(r.races[0].kind[lane], 1u);  // write-read
    EXPECT_EQ(r.races[0].prev_slot[lane], 0u);
    EXPECT_EQ(r.races[0].prev_clock[lane], 3u);
  }
  EXPECT_EQ(r.races[1].word, ww);
  EXPECT_EQ(r.races[1].mask, 0x03u);
  EXPECT_EQ(r.races[1].kind[0], 0u);  // write-write
  EXPECT_EQ(r.races[1].prev_clock[1], 3u);
  EXPECT_EQ(r.races[2].word, rw);
  EXPECT_EQ(r.races[2].granule, g + 1);
  EXPECT_EQ(r.races[2].mask, 0xC0u);
  for (unsigned lane : {6u, 7u}) {
    EXPECT_EQ(r.races[2].kind[lane], 2u);  // read-write
    EXPECT_EQ(r.races[2].prev_slot[lane], 5u);
    EXPECT_EQ(r.races[2].prev_clock[lane], 0xFFFFFFFFu);
  }
  // Lanes that did not race are zero.
  EXPECT_EQ(r.races[0].prev_clock[0], 0u);
  EXPECT_EQ(k.read_register(regs::kStatRaces), 3u);
  expect_clean(k);
}

TEST(KernelRecords, ForcedAndInSoftwareEscalations) {
  sim::KernelSim<Vrac_kernel_default> k(options(22));
  Batch b(kShape);
  b.set_row(1, row({{1, 9}}));
  const uint64_t g = 0xABCDEF;
  b.access(regs::kOpWrite, 1, g, 0x11);
  const uint32_t forced = b.access(regs::kOpRead, 0, g, 0xFF, true);  // a thread without a slot
  const uint32_t after = b.access(regs::kOpWrite, 1, g, 0x01);        // the line is now the host's
  const uint32_t reclaim = b.access(regs::kOpFree, 0, g, 0xFF);       // full free: back to hardware
  b.access(regs::kOpWrite, 1, g, 0x01);                               // decided in hardware again
  const BatchResult r = run_batch(k, b, Buffers{});
  ASSERT_EQ(r.status, regs::kStatusOk);
  EXPECT_TRUE(r.races.empty());
  ASSERT_EQ(r.escalations.size(), 3u);
  EXPECT_EQ(r.escalations[0].word, forced);
  EXPECT_EQ(r.escalations[0].granule, g);
  EXPECT_EQ(r.escalations[0].reason, regs::kReasonForced);
  const driver::Line before = line_of(r.escalations[0]);
  EXPECT_FALSE(before.in_software);
  EXPECT_EQ(before.bytes[0].w_slot, 1u);
  EXPECT_EQ(before.bytes[0].w_clock, 9u);
  EXPECT_EQ(before.bytes[4].w_clock, 9u);
  EXPECT_EQ(before.bytes[1].w_clock, 0u);
  EXPECT_EQ(r.escalations[1].word, after);
  EXPECT_EQ(r.escalations[1].reason, regs::kReasonInSoftware);
  EXPECT_TRUE(line_of(r.escalations[1]).in_software);
  EXPECT_EQ(r.escalations[2].word, reclaim);
  EXPECT_EQ(r.escalations[2].reason, regs::kReasonReclaim);
  EXPECT_EQ(k.read_register(regs::kStatEscalations), 3u);
  EXPECT_EQ(k.read_register(regs::kStatCommands), 6u);  // the set-row, four accesses, the free
  EXPECT_EQ(k.read_register(regs::kStatAccesses), 4u);  // reads and writes only
  expect_clean(k);
}

// The tiny model: 2 sets x 2 ways, and a table of 2 buckets of 4 ways.
TEST(KernelRecords, WriteBacksFillsAndSpillsFollowTheBucketRules) {
  for (uint64_t seed : {31u, 32u, 33u}) {
    sim::KernelSim<Vrac_kernel_tiny> k(options(seed));
    const unsigned ways = k.read_register(regs::kCapBucketWays);
    ASSERT_EQ(ways, 4u);
    Buffers buf;
    buf.bucket_bits = 1;
    Batch first(kShape);
    first.set_row(0, row({{0, 3}}));
    first.set_row(1, row({{1, 1}}));
    std::vector<uint64_t> granules;
    std::map<uint32_t, uint64_t> granule_of_word;
    for (uint64_t i = 0; i < 24; ++i) {
      const uint64_t g = 0x100 + 37 * i;
      granules.push_back(g);
      granule_of_word[first.access(regs::kOpWrite, 0, g, 0xFF)] = g;
    }
    const BatchResult r1 = run_batch(k, first, buf);
    ASSERT_EQ(r1.status, regs::kStatusOk);
    EXPECT_TRUE(r1.races.empty());

    // Batch 1 escalates only spills (reason spill, the evicted line with
    // W = (0, 3), named by the word of a command whose miss evicted another
    // granule) and fills of granules whose filter bit is set (the line
    // comes back with only INSOFTWARE: the host may own the granule).
    std::set<uint64_t> spilled, host_owned;
    for (const EscalationRecord& e : r1.escalations) {
      const driver::Line l = line_of(e);
      if (e.reason == regs::kReasonInSoftware) {
        EXPECT_TRUE(l.in_software);
        EXPECT_EQ(l.bytes, driver::Line{}.bytes);
        EXPECT_EQ(granule_of_word.at(static_cast<uint32_t>(e.word)), e.granule);
        host_owned.insert(e.granule);
        continue;
      }
      ASSERT_EQ(e.reason, regs::kReasonSpill);
      EXPECT_FALSE(l.in_software);
      for (const auto& byte : l.bytes) EXPECT_EQ(byte.w_clock, 3u);
      ASSERT_TRUE(granule_of_word.count(static_cast<uint32_t>(e.word))) << "word " << e.word;
      EXPECT_NE(granule_of_word[static_cast<uint32_t>(e.word)], e.granule);
      EXPECT_TRUE(spilled.insert(e.granule).second) << "granule spilled twice";
      host_owned.insert(e.granule);
    }
    EXPECT_FALSE(spilled.empty()) << "2 buckets of 4 ways and 4 cache lines cannot hold 24 granules";
    EXPECT_EQ(k.read_register(regs::kStatSpills), spilled.size());

    // The bucket table: a stored granule is in a way of its own bucket with
    // its line, every way of a bucket that spilled is taken, and a bucket's
    // filter has exactly the filter bits of the granules it spilled.
    std::map<uint64_t, uint64_t> filters;
    for (uint64_t bucket = 0; bucket < 2; ++bucket) {
      std::vector<std::byte> bytes(128 * ways);
      k.memory().read(buf.buckets + 128 * ways * bucket, bytes);
      uint64_t filter_expected = 0;
      for (uint64_t g : spilled) {
        if (driver::bucket_of(g, 1) == bucket) filter_expected |= uint64_t{1} << driver::bucket_filter_bit(g);
      }
      filters[bucket] = driver::get_bits(bytes, 64, 64);
      EXPECT_EQ(filters[bucket], filter_expected) << "bucket " << bucket;
      for (unsigned w = 0; w < ways; ++w) {
        const std::span<const std::byte> way(bytes.data() + 128 * w, 128);
        const uint64_t key = driver::get_bits(way, 0, 64);
        if (key == 0) {
          EXPECT_EQ(filter_expected, 0u) << "a bucket with an empty way spilled";
          continue;
        }
        const uint64_t g = key - 1;
        EXPECT_EQ(driver::bucket_of(g, 1), bucket);
        EXPECT_FALSE(host_owned.count(g)) << "granule both stored and host-owned";
        const driver::Line l =
            driver::decode_line(std::span<const std::byte, driver::kLineBytes>(way.data() + 24, 104), kShape);
        for (const auto& byte : l.bytes) EXPECT_EQ(byte.w_clock, 3u);
      }
    }
    for (uint64_t g : host_owned) {
      if (!spilled.count(g)) {
        EXPECT_TRUE((filters[driver::bucket_of(g, 1)] >> driver::bucket_filter_bit(g)) & 1u) << "granule " << g;
      }
    }

    // Second batch: slot 1 (concurrent with slot 0's writes) reads every
    // granule. A granule whose state is on chip or in the table races
    // (write-read); a host-owned one comes back INSOFTWARE and escalates.
    Batch second(kShape);
    std::map<uint32_t, uint64_t> reads;
    for (uint64_t g : granules) reads[second.access(regs::kOpRead, 1, g, 0xFF)] = g;
    const BatchResult r2 = run_batch(k, second, buf);
    ASSERT_EQ(r2.status, regs::kStatusOk);
    std::set<uint64_t> raced, escalated;
    for (const RaceRecord& rr : r2.races) {
      EXPECT_EQ(reads.at(static_cast<uint32_t>(rr.word)), rr.granule);
      EXPECT_EQ(rr.mask, 0xFFu);
      raced.insert(rr.granule);
    }
    std::map<uint64_t, uint32_t> read_word;
    for (const auto& [word, g] : reads) read_word[g] = word;
    for (const EscalationRecord& e : r2.escalations) {
      if (e.reason == regs::kReasonSpill) {  // evictions of this batch: before its read, the granule is the host's
        if (e.word < read_word.at(e.granule)) host_owned.insert(e.granule);
        continue;
      }
      EXPECT_EQ(e.reason, regs::kReasonInSoftware);
      escalated.insert(e.granule);
    }
    for (uint64_t g : granules) {
      EXPECT_NE(raced.count(g), escalated.count(g)) << "granule " << g << ": exactly one of race or escalation";
      EXPECT_EQ(escalated.count(g), host_owned.count(g)) << "granule " << g;
    }
    EXPECT_GT(k.read_register(regs::kStatWritebacks), 0u);
    EXPECT_GT(k.read_register(regs::kStatMisses), 24u);
    expect_clean(k);
  }
}

TEST(KernelRecords, ClearStateForgetsLinesAndRowsButNotStatistics) {
  sim::KernelSim<Vrac_kernel_default> k(options(41));
  Batch b(kShape);
  b.set_row(0, row({{0, 3}}));
  b.set_row(1, row({{1, 1}}));
  b.access(regs::kOpWrite, 0, 500, 0xFF);
  ASSERT_EQ(run_batch(k, b, Buffers{}).status, regs::kStatusOk);
  const uint32_t accesses = k.read_register(regs::kStatAccesses);
  Batch racy(kShape);
  racy.access(regs::kOpWrite, 1, 500, 0xFF);
  // Without the clear this write races; after it the granule is fresh and
  // slot 1's row is zero again.
  const BatchResult cleared = run_batch(k, racy, Buffers{}, regs::kFlagClearState);
  EXPECT_EQ(cleared.status, regs::kStatusOk);
  EXPECT_TRUE(cleared.races.empty());
  EXPECT_EQ(k.read_register(regs::kStatAccesses), accesses + 1) << "statistics survive the clear";
  Batch again(kShape);
  again.set_row(0, row({{0, 3}}));
  again.access(regs::kOpWrite, 0, 500, 0xFF);  // W = (0, 3); slot 1's row is zero: concurrent
  again.access(regs::kOpRead, 1, 500, 0x01);
  EXPECT_EQ(run_batch(k, again, Buffers{}).races.size(), 1u);
  expect_clean(k);
}

// Bus robustness: random latency (up to 40 cycles) and back-pressure (up to
// 60 %) on every channel; the records must not change and the memory model
// must see no protocol violation.
TEST(KernelBus, RecordsIndependentOfLatencyAndBackPressure) {
  // 12 tags in each of 3 sets of the 256 x 4 cache: evictions, write-backs
  // and (with 16 buckets) spills, besides races and forced escalations.
  Batch b(kShape);
  for (unsigned s = 0; s < 8; ++s) b.set_row(s, row({{s, s + 1}}));
  std::vector<uint64_t> granules;
  for (uint64_t set : {3u, 77u, 200u}) {
    for (uint64_t tag = 1; tag <= 12; ++tag) granules.push_back(granule_in_set(set, tag * 0x1357));
  }
  for (unsigned i = 0; i < 600; ++i) {
    const unsigned slot = (i * 7) % 8;
    const uint64_t g = granules[(i * 13) % granules.size()];
    b.access(i % 3 == 0 ? regs::kOpWrite : regs::kOpRead, slot, g, 0xFFu >> (i % 4), i % 50 == 0);
  }
  std::vector<RaceRecord> reference_races;
  std::vector<EscalationRecord> reference_escs;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const unsigned stall = static_cast<unsigned>((seed * 11) % 61);
    const unsigned latency = 1 + static_cast<unsigned>((seed * 7) % 40);
    sim::KernelSim<Vrac_kernel_default> k(options(100 + seed, stall, latency));
    Buffers buf;
    buf.bucket_bits = 4;  // 16 buckets: spills too
    // Buffers off their 4 KB boundaries: the command reader starts inside a
    // beat and clips bursts at 4 KB; 128-byte escalation records at odd
    // 64-byte offsets cross 4 KB every 32 records and are split.
    buf.commands += 0xF00 + 0x10 * seed;
    buf.races += 0x40 * seed;
    if (seed % 2 == 1) buf.escalations += 0x40;
    const BatchResult r = run_batch(k, b, buf);
    ASSERT_EQ(r.status, regs::kStatusOk);
    EXPECT_EQ(r.words_done, b.words());
    if (seed == 1) {
      reference_races = r.races;
      reference_escs = r.escalations;
      EXPECT_FALSE(r.races.empty());
      EXPECT_GT(r.escalations.size(), 32u) << "records must cross a 4 KB boundary";
      EXPECT_GT(k.read_register(regs::kStatWritebacks), 0u);
      EXPECT_GT(k.read_register(regs::kStatSpills), 0u);
    } else {
      EXPECT_EQ(r.races, reference_races) << "seed " << seed;
      ASSERT_EQ(r.escalations.size(), reference_escs.size()) << "seed " << seed;
      for (size_t i = 0; i < r.escalations.size(); ++i) {
        EXPECT_EQ(r.escalations[i].word, reference_escs[i].word);
        EXPECT_EQ(r.escalations[i].reason, reference_escs[i].reason);
        EXPECT_EQ(r.escalations[i].line, reference_escs[i].line);
      }
    }
    EXPECT_FALSE(k.bus_busy());
    EXPECT_GT(k.port_stats(0).read_bursts, 0u);
    expect_clean(k);
  }
}

}  // namespace
}  // namespace raceaccel::kernel_test
