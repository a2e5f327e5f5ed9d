// Re-import and slot recycling at once (docs/kernel-interface.md,
// "Re-import"; docs/driver.md, "Slots and their recycling"). The host keeps
// epochs as (thread, its own local time); a line going back on chip must
// carry (lane, lane clock), each epoch translated with
// LaneMap::lane_epoch, and a line with an epoch that has no lane clock (a
// thread without a slot, or from before or after it held one) stays on the
// host. These tests run many short-lived threads on few slots with tiny
// caches, pools and batches, so that slots are recycled and lines go to the
// host and back all the time, and require exactly DJIT+'s races.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "../common/race_keys.hpp"
#include "../common/short_lived_trace.hpp"
#include "detect/djit.hpp"
#include "driver/software/software_device.hpp"
#include "golden_comparison.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

struct DeviceShape {
  unsigned slots = 4, clock_bits = 16, read_vcs = 2;
  driver::CacheShape cache{4, 2};
  size_t batch_words = 64;
  unsigned bucket_bits = 4;
  bool reimport = true, recycle = true;
  bool atomics_on_chip = true;  // ops 9-10; off: an atomic access puts its line on the host
};

using Outcome = GoldenRun;

template <typename Source>
Outcome run(const DeviceShape& s, Source&& next_event) {
  driver::DeviceOptions options;
  options.software_slots = s.slots;
  options.software_clock_bits = s.clock_bits;
  options.software_read_vcs = s.read_vcs;
  options.software_objects = 2;
  options.software_atomic_access = s.atomics_on_chip;
  auto device = driver::make_software_device(options, s.cache);
  offload::OffloadOptions oo;
  oo.batch_words = s.batch_words;
  oo.bucket_bits = s.bucket_bits;
  oo.reimport = s.reimport;
  oo.recycle_slots = s.recycle;
  return run_with_golden(*device, oo, std::forward<Source>(next_event));
}

Outcome run_events(const DeviceShape& s, const std::vector<Event>& events) {
  size_t i = 0;
  return run(s, [&](Event& e) {
    if (i == events.size()) return false;
    e = events[i++];
    return true;
  });
}

// A directed trace on 2 slots: thread 3 has no slot, so its write puts x on
// the host, and that line must stay there (thread 3 never held a lane).
// Thread 2 takes thread 1's slot after its join, continuing the slot's
// clock; its writes of x are checked on the host, then x goes back on chip
// with thread 2's epoch as a lane clock above thread 1's last. Main knows
// thread 1's end but not thread 2's write: its read races, and the engine
// must find that from the imported epoch (the untranslated local time of
// thread 2 is at or below main's lane clock for the slot, so a line sent
// without translation misses the race; a line kept on the host because
// thread 2 is beyond the slot count finds it on the host).
TEST(ReimportWithRecycling, ALineOfARecycledSlotGoesBackWithItsLaneClock) {
  const uint64_t x = 0x1000;
  std::vector<Event> events;
  events.push_back(Event::sync(Op::Fork, 0, 1));  // slot 1
  events.push_back(Event::sync(Op::Fork, 0, 3));  // no slot left
  events.push_back(Event::write(3, x, 8));        // forced: the host owns x
  for (int i = 0; i < 3; ++i) {                   // thread 1's releases tick its clock: slot 1's clock grows
    events.push_back(Event::sync(Op::Acquire, 1, 9));
    events.push_back(Event::sync(Op::Release, 1, 9));
  }
  events.push_back(Event::sync(Op::Join, 0, 3));
  events.push_back(Event::sync(Op::Join, 0, 1));  // slot 1 is free, and main knows its holder's end
  events.push_back(Event::sync(Op::Fork, 0, 2));  // takes slot 1, its clock continuing thread 1's
  events.push_back(Event::write(2, x, 8));        // on the host (x holds thread 3's epoch: it stays there)
  // Writes of other granules, so that launches answer x's escalation; then
  // x goes back (before main's read, the next command on it) with thread
  // 2's epoch as a lane clock, and only that epoch can make the read race.
  for (unsigned i = 0; i < 24; ++i) events.push_back(Event::write(2, 0x2000 + 8 * i, 8));
  events.push_back(Event::read(0, x, 8));  // races with thread 2's write, on chip
  // Odd batch sizes: with an even one the launch could fall on a write of x
  // every time, which keeps x in flight and on the host.
  for (const size_t batch : {size_t{1}, size_t{9}, size_t{17}}) {
    DeviceShape s;
    s.slots = 2;
    s.batch_words = batch;
    const Outcome r = run_events(s, events);
    const std::string what = fmt::format("batches of {} words", batch);
    ASSERT_EQ(r.golden.size(), 8u) << what;  // one per byte
    expect_same_races(r, what);
    EXPECT_EQ(r.stats.slot_recycles, 1u) << what;
    EXPECT_EQ(r.stats.slotless_threads, 1u) << what;
    EXPECT_GE(r.stats.reimports, 1u) << what;
    EXPECT_EQ(r.stats.device_races, 8u) << "the race must be found on chip, " << what;
  }
}

// The other way round: thread 1 gives its slot to thread 2 at its join,
// then acts again (slotless now, so its write puts x on the host). Its
// epoch from after its end has no lane clock (as a lane clock it would be
// thread 2's first), so x stays on the host, where thread 2's read is found
// racing with it; sent back on chip, that read would look ordered after
// the write.
TEST(ReimportWithRecycling, AnEpochFromAfterItsThreadGaveTheSlotAwayStaysOnTheHost) {
  const uint64_t x = 0x1000;
  std::vector<Event> events;
  events.push_back(Event::sync(Op::Fork, 0, 1));  // slot 1
  for (int i = 0; i < 3; ++i) {
    events.push_back(Event::sync(Op::Acquire, 1, 9));
    events.push_back(Event::sync(Op::Release, 1, 9));
  }
  events.push_back(Event::sync(Op::Join, 0, 1));
  events.push_back(Event::sync(Op::Fork, 0, 2));  // takes slot 1
  events.push_back(Event::write(1, x, 8));        // thread 1 after its join: slotless, on the host
  for (unsigned i = 0; i < 24; ++i) events.push_back(Event::write(2, 0x2000 + 8 * i, 8));
  events.push_back(Event::read(2, x, 8));  // races with thread 1's write
  for (const size_t batch : {size_t{1}, size_t{9}, size_t{17}}) {
    DeviceShape s;
    s.slots = 2;
    s.batch_words = batch;
    const Outcome r = run_events(s, events);
    const std::string what = fmt::format("batches of {} words", batch);
    ASSERT_EQ(r.golden.size(), 8u) << what;
    expect_same_races(r, what);
    EXPECT_EQ(r.stats.slot_recycles, 1u) << what;
    EXPECT_EQ(r.stats.reimports, 0u) << what;
  }
}

// The read clock: thread 2 (on thread 1's recycled slot) and main read x
// while the host owns it (its write's escalation is not answered yet), so
// x's bytes are read-shared on the host with a read clock over threads.
// Once answered, x goes back with that clock in lane clocks, and main's
// write must race with thread 2's read on chip. Paddings move the batch
// boundaries so that for some the reads are on the host and the import
// carries the read clock.
TEST(ReimportWithRecycling, AReadClockGoesBackInLaneClocks) {
  const uint64_t x = 0x1000;
  uint64_t with_read_clock = 0, device_races = 0;
  for (const size_t batch : {size_t{8}, size_t{16}, size_t{64}}) {
    for (unsigned pad = 0; pad < 40; pad += 3) {
      std::vector<Event> events = {
          Event::sync(Op::Fork, 0, 1),                                    // slot 1
          Event::sync(Op::Join, 0, 1),                                    // free again
          Event::atomic(Op::AtomicStore, 0, x, 8, MemoryOrder::Relaxed),  // forced (no ops 9-10): the host owns x
      };
      for (unsigned i = 0; i < pad; ++i) events.push_back(Event::write(0, 0x2000 + 8 * i, 8));
      events.push_back(Event::write(0, x, 8));        // on the host; every atomic access is before it
      events.push_back(Event::sync(Op::Fork, 0, 2));  // takes slot 1, knows main's write
      events.push_back(Event::read(2, x, 8));
      events.push_back(Event::read(0, x, 8));  // concurrent with thread 2's: x read-shared
      for (unsigned i = 0; i < 40; ++i) events.push_back(Event::write(0, 0x3000 + 8 * i, 8));
      events.push_back(Event::write(0, x, 8));  // races with thread 2's read
      DeviceShape s;
      s.slots = 2;
      s.batch_words = batch;
      s.atomics_on_chip = false;  // the atomic store is how x reaches the host
      const Outcome r = run_events(s, events);
      const std::string what = fmt::format("batches of {} words, padding {}", batch, pad);
      ASSERT_EQ(r.golden.size(), 8u) << what;
      expect_same_races(r, what);
      EXPECT_EQ(r.stats.slot_recycles, 1u) << what;
      with_read_clock += r.stats.reimported_read_clocks;
      device_races += r.stats.device_races;
    }
  }
  EXPECT_GT(with_read_clock, 0u) << "some import must carry the read clock";
  EXPECT_GT(device_races, 0u) << "some race must be found on chip from an imported read clock";
}

// Random traces: thousands of short-lived threads on 2 and 4 slots (forks by
// main and by workers, joins by main and by other workers, threads that
// take a freed slot later, threads acting after their join), with caches of
// 4 × 2 and 1 × 1 lines, 1- and 2-entry read-clock pools, small buckets and
// batches from the minimum to 256 words, and narrow clocks (threads
// evicted from their slots) in one configuration.
TEST(ReimportWithRecycling, ShortLivedThreadsOnSmallDevicesMatchDjit) {
  struct Config {
    const char* name;
    DeviceShape setup;
    uint32_t threads, live;
  };
  std::vector<Config> configs;
  for (const size_t batch : {size_t{1}, size_t{16}, size_t{256}}) {
    DeviceShape two{.slots = 2, .read_vcs = 1, .cache = {1, 1}, .batch_words = batch};
    configs.push_back({"2 slots, 1x1 cache, 1-entry pool", two, 300, 3});
    DeviceShape four{.slots = 4, .read_vcs = 2, .cache = {4, 2}, .batch_words = batch};
    configs.push_back({"4 slots, 4x2 cache, 2-entry pool", four, 500, 6});
  }
  DeviceShape narrow{.slots = 4, .clock_bits = 8, .read_vcs = 2, .cache = {2, 2}, .batch_words = 16};
  configs.push_back({"4 slots, 8-bit clocks, 2x2 cache", narrow, 500, 5});
  uint64_t seed = 0x5107'0000, reimports = 0, with_clock = 0, recycles = 0, adopted = 0, on_chip = 0;
  uint64_t evictions = 0;
  for (const Config& c : configs) {
    for (int round = 0; round < 10; ++round, ++seed) {
      ShortLivedOptions o;
      o.seed = seed;
      o.threads = c.threads;
      o.live = c.live;
      ShortLivedTrace trace(o);
      const Outcome r = run(c.setup, [&](Event& e) { return trace.next(e); });
      const std::string what = fmt::format("{}, batches of {} words, seed {:#x}", c.name, c.setup.batch_words, seed);
      expect_same_races(r, what);
      if (::testing::Test::HasFatalFailure()) return;
      EXPECT_GT(r.golden.size(), 5u) << what;
      EXPECT_GT(r.stats.slot_recycles, c.threads / 10) << what;
      reimports += r.stats.reimports;
      with_clock += r.stats.reimported_read_clocks;
      recycles += r.stats.slot_recycles;
      adopted += r.stats.slots_taken_later;
      on_chip += r.stats.on_chip();
      evictions += r.stats.overflow_evictions;
    }
  }
  std::printf(
      "re-import with recycling: %lu lines re-imported (%lu with a read clock), %lu slots recycled "
      "(%lu taken later), %lu accesses on chip, %lu evictions\n",
      reimports, with_clock, recycles, adopted, on_chip, evictions);
  EXPECT_GT(reimports, 500u) << "lines must go back on chip for this test to mean anything";
  EXPECT_GT(with_clock, 10u) << "lines with shared bytes must go back with their read clock";
  EXPECT_GT(adopted, 0u) << "slotless threads must take freed slots later too";
  EXPECT_GT(evictions, 0u) << "the narrow clocks must evict threads from their slots";
}

}  // namespace
}  // namespace raceaccel::test
