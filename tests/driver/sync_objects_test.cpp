// SyncObjectStore (host/offload/sync_objects.*): which lock events run on
// chip, which commands they need, and that the commands keep the device's
// state exact. The device is modelled here by executing the planned
// commands on plain vectors with the contract's semantics (ops 4–6), and
// set-row for whatever the store leaves to the caller; after every event
// each slot's row must equal the host's thread clock, lane by lane.
#include "offload/sync_objects.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace raceaccel::offload {
namespace {

using Kind = SyncObjectCommand::Kind;

// The device side of ops 3–6, on `slots` lanes of `clock_bits` bits.
class DeviceModel {
 public:
  DeviceModel(unsigned slots, unsigned objects, unsigned clock_bits)
      : rows_(slots, std::vector<uint64_t>(slots, 0)),
        objects_(objects, std::vector<uint64_t>(slots, 0)),
        max_clock_((uint64_t{1} << clock_bits) - 1) {}
  void execute(const SyncObjectCommand& c, uint32_t slot) {
    ASSERT_LT(c.entry, objects_.size());
    std::vector<uint64_t>& object = objects_[c.entry];
    std::vector<uint64_t>& row = rows_.at(slot);
    switch (c.kind) {
      case Kind::Load:
        ASSERT_EQ(c.lanes.size(), row.size());
        object = c.lanes;
        break;
      case Kind::Acquire:
        for (size_t l = 0; l < row.size(); ++l) row[l] = std::max(row[l], object[l]);
        break;
      case Kind::Release:
        for (size_t l = 0; l < row.size(); ++l) object[l] = std::max(object[l], row[l]);
        ASSERT_LT(row[slot], max_clock_) << "a release whose tick outgrows the clock width was sent";
        row[slot] += 1;
        break;
    }
  }
  void set_row(uint32_t slot, std::vector<uint64_t> lanes) { rows_.at(slot) = std::move(lanes); }
  const std::vector<uint64_t>& row(uint32_t slot) const { return rows_.at(slot); }

 private:
  std::vector<std::vector<uint64_t>> rows_, objects_;
  uint64_t max_clock_;
};

// Host and device side by side, as the offload engine drives them.
struct Harness {
  Harness(unsigned slots, unsigned entries, unsigned clock_bits = 32)
      : store(entries, slots, clock_bits), device(slots, std::max(entries, 1u), clock_bits), slots(slots) {}

  // Returns the commands the event needed on chip (empty: software or nothing to do).
  std::vector<SyncObjectCommand> process(const Event& e) {
    const uint32_t t = sync.thread(e.tid);
    std::vector<SyncObjectCommand> out;
    if (store.apply_on_chip(e, t, sync, out)) {
      for (const SyncObjectCommand& c : out) device.execute(c, t);
      on_chip = true;
    } else {
      EXPECT_TRUE(out.empty());
      sync.apply(e);
      store.applied_in_software(e);
      on_chip = false;
      resync_rows();  // the set-rows the caller would send
    }
    return out;
  }
  void resync_rows() {
    for (uint32_t s = 0; s < std::min<uint32_t>(slots, sync.thread_count()); ++s) {
      device.set_row(s, store.device_lanes(sync.clock(s)));
    }
  }
  void expect_rows_exact(const std::string& what) {
    for (uint32_t s = 0; s < std::min<uint32_t>(slots, sync.thread_count()); ++s) {
      ASSERT_EQ(device.row(s), store.device_lanes(sync.clock(s))) << what << ", slot " << s;
    }
  }

  ReferenceSyncState sync;
  SyncObjectStore store;
  DeviceModel device;
  unsigned slots;
  bool on_chip = false;
};

std::vector<Kind> kinds(const std::vector<SyncObjectCommand>& commands) {
  std::vector<Kind> out;
  for (const auto& c : commands) out.push_back(c.kind);
  return out;
}

TEST(SyncObjectStore, LoadsOnceThenReusesTheEntry) {
  Harness h(4, 8);
  h.process(Event::sync(Op::Fork, 0, 1));
  h.resync_rows();
  EXPECT_TRUE(h.process(Event::sync(Op::Acquire, 0, 0x100)).empty()) << "a zero lock clock needs no command";
  EXPECT_TRUE(h.on_chip);
  const auto release = h.process(Event::sync(Op::Release, 0, 0x100));
  EXPECT_EQ(kinds(release), (std::vector<Kind>{Kind::Load, Kind::Release}));
  EXPECT_EQ(release[0].lanes, std::vector<uint64_t>(4, 0));
  const auto acquire = h.process(Event::sync(Op::Acquire, 1, 0x100));
  EXPECT_EQ(kinds(acquire), (std::vector<Kind>{Kind::Acquire})) << "the mirror knows the released value";
  EXPECT_EQ(acquire[0].entry, release[1].entry);
  h.expect_rows_exact("after the hand-over");
  EXPECT_EQ(h.sync.clock(1).get(0), 2u);
  EXPECT_EQ(h.store.stats().loads, 1u);
  EXPECT_EQ(h.store.stats().releases, 1u);
  EXPECT_EQ(h.store.stats().acquires, 1u);
}

TEST(SyncObjectStore, OneEntryReloadsEveryOtherLock) {
  Harness h(4, 1);
  h.process(Event::sync(Op::Fork, 0, 1));
  h.resync_rows();
  for (int round = 0; round < 5; ++round) {
    for (uint64_t lock : {1u, 2u, 3u}) {
      const auto rel = h.process(Event::sync(Op::Release, round % 2, lock));
      // Lock 1 is in the entry from the previous round's acquire.
      const std::vector<Kind> want =
          round > 0 && lock == 1 ? std::vector<Kind>{Kind::Release} : std::vector<Kind>{Kind::Load, Kind::Release};
      ASSERT_EQ(kinds(rel), want) << "round " << round << " lock " << lock;
      EXPECT_EQ(rel.back().entry, 0u);
      h.expect_rows_exact("release");
    }
    // Lock 3 is still in the entry: no reload; lock 1 needs one.
    EXPECT_EQ(kinds(h.process(Event::sync(Op::Acquire, 1 - round % 2, 3))), (std::vector<Kind>{Kind::Acquire}));
    EXPECT_EQ(kinds(h.process(Event::sync(Op::Acquire, 1 - round % 2, 1))),
              (std::vector<Kind>{Kind::Load, Kind::Acquire}));
    h.expect_rows_exact("acquire");
  }
}

TEST(SyncObjectStore, ReadersAndWritersUseBothSides) {
  Harness h(4, 16);
  for (ThreadId t = 1; t <= 2; ++t) h.process(Event::sync(Op::Fork, 0, t));
  h.resync_rows();
  h.process(Event::sync(Op::AcquireShared, 1, 7));
  const auto read_unlock = h.process(Event::sync(Op::ReleaseShared, 1, 7));
  EXPECT_EQ(kinds(read_unlock), (std::vector<Kind>{Kind::Load, Kind::Release}));
  h.process(Event::sync(Op::Release, 0, 7));  // exclusive side gets thread 0's clock
  // A writer joins both sides; a reader only the exclusive one.
  EXPECT_EQ(h.process(Event::sync(Op::Acquire, 2, 7)).size(), 2u);
  EXPECT_EQ(h.process(Event::sync(Op::AcquireShared, 1, 7)).size(), 1u);
  h.expect_rows_exact("rwlock");
  EXPECT_EQ(h.sync.clock(2).get(1), 1u) << "the writer saw the reader's unlock";
}

TEST(SyncObjectStore, SlotlessThreadsAndOverflowingTicksStayInSoftware) {
  Harness h(2, 4, 3);                                                        // 2 slots, 3-bit clocks (max 7)
  for (ThreadId t = 1; t <= 2; ++t) h.process(Event::sync(Op::Fork, 0, t));  // thread 2 has no slot
  h.resync_rows();
  EXPECT_TRUE(h.process(Event::sync(Op::Release, 2, 5)).empty());
  EXPECT_FALSE(h.on_chip) << "a thread without a slot";
  // The lock now holds thread 2's lane (not on chip) and thread 0's fork tick.
  const auto acq = h.process(Event::sync(Op::Acquire, 1, 5));
  EXPECT_TRUE(h.on_chip);
  ASSERT_EQ(kinds(acq), (std::vector<Kind>{Kind::Load, Kind::Acquire}));
  EXPECT_EQ(acq[0].lanes.size(), 2u) << "only slot lanes go to the device";
  h.expect_rows_exact("slotless release");
  // Thread 1 ticks up to the width: the release that would reach 8 is software.
  while (h.sync.local_time(1) < 7) {
    h.process(Event::sync(Op::Release, 1, 6));
    ASSERT_TRUE(h.on_chip);
  }
  EXPECT_TRUE(h.process(Event::sync(Op::Release, 1, 6)).empty());
  EXPECT_FALSE(h.on_chip);
  EXPECT_EQ(h.sync.local_time(1), 8u);
  // Lock 6 changed in software: its next on-chip use reloads it.
  EXPECT_EQ(kinds(h.process(Event::sync(Op::Acquire, 0, 6))), (std::vector<Kind>{Kind::Load, Kind::Acquire}));
  EXPECT_TRUE(h.on_chip);
  h.expect_rows_exact("reloaded after a software release");
  // A lock clock with a lane beyond the width stays in software.
  h.process(Event::sync(Op::Release, 1, 7));
  EXPECT_FALSE(h.on_chip);
  EXPECT_TRUE(h.process(Event::sync(Op::Acquire, 0, 7)).empty());
  EXPECT_FALSE(h.on_chip) << "a lock clock beyond the width";
}

TEST(SyncObjectStore, NoStoreMeansSoftware) {
  Harness h(4, 0);
  EXPECT_TRUE(h.process(Event::sync(Op::Release, 0, 1)).empty());
  EXPECT_FALSE(h.on_chip);
  h.process(Event::write(0, 0x10, 8));
  EXPECT_FALSE(h.on_chip) << "only lock events are candidates";
  EXPECT_EQ(h.store.stats().in_software, 1u);
}

TEST(SyncObjectStore, AMirrorThatDivergesThrows) {
  Harness h(4, 4);
  h.process(Event::sync(Op::Fork, 0, 1));
  h.resync_rows();
  h.process(Event::sync(Op::Release, 0, 9));
  // The host changes the lock clock behind the store's back (a caller that
  // forgets applied_in_software): the next reuse must notice.
  const Event sneaky = Event::sync(Op::Release, 1, 9);
  h.sync.apply(sneaky);
  std::vector<SyncObjectCommand> out;
  EXPECT_THROW(h.store.apply_on_chip(Event::sync(Op::Acquire, 0, 9), 0, h.sync, out), std::logic_error);
}

// Random lock traffic over many locks, threads beyond the slots, a small
// store and narrow clocks: the device rows stay exactly the host's clocks.
TEST(SyncObjectStore, RandomLockTrafficKeepsTheDeviceExact) {
  for (unsigned entries : {1u, 2u, 3u, 16u}) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      std::mt19937_64 rng(seed * 977 + entries);
      const unsigned slots = 4;
      Harness h(slots, entries, seed % 3 == 0 ? 6 : 32);
      const ThreadId threads = 6;  // threads 4 and 5 have no slot
      for (ThreadId t = 1; t < threads; ++t) h.process(Event::sync(Op::Fork, 0, t));
      h.resync_rows();
      const Op ops[] = {Op::Acquire, Op::Release, Op::AcquireShared, Op::ReleaseShared, Op::Fork};
      uint64_t on_chip = 0;
      for (int i = 0; i < 400; ++i) {
        const auto t = static_cast<ThreadId>(rng() % threads);
        const Op op = ops[rng() % 5];
        const uint64_t lock = rng() % 5;
        if (op == Op::Fork) {  // a set-row path in between
          h.process(Event::sync(Op::Join, t, (t + 1) % threads));
        } else {
          h.process(Event::sync(op, t, lock));
        }
        on_chip += h.on_chip ? 1 : 0;
        h.expect_rows_exact("entries " + std::to_string(entries) + " seed " + std::to_string(seed) + " event " +
                            std::to_string(i));
        if (::testing::Test::HasFatalFailure()) return;
      }
      EXPECT_GT(on_chip, 50u);
    }
  }
}

}  // namespace
}  // namespace raceaccel::offload
