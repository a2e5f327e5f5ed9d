// LockTable (host/runtime/lock_table.hpp): every lock keeps its own clocks
// through the table's growth, a lock without clocks is not found, and the
// address 0 (which marks empty slots) is a lock like any other, and an
// erased lock leaves every other reachable.
#include "runtime/lock_table.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>

namespace raceaccel::rt {
namespace {

// Distinct clocks per lock: slot 0 holds the lock's address.
uint64_t addr_of(uint64_t i) { return 0x7f0000001000ull + 48 * i; }

TEST(LockTable, KeepsEveryLocksClocksAcrossGrowth) {
  LockTable table;
  constexpr uint64_t kLocks = 5000;  // the table starts at 64 slots: many doublings
  for (uint64_t i = 0; i < kLocks; ++i) {
    LockClocks& c = table.get(addr_of(i));
    EXPECT_TRUE(c.exclusive.is_zero());
    c.exclusive.set(0, addr_of(i));
    c.exclusive.set(1, i + 1);
    if (i % 3 == 0) c.shared = std::make_unique<VectorClock>(VectorClock{i, 7});
  }
  for (uint64_t i = 0; i < kLocks; ++i) {
    const LockClocks* c = table.find(addr_of(i));
    ASSERT_NE(c, nullptr) << i;
    EXPECT_EQ(c->exclusive.get(0), addr_of(i));
    EXPECT_EQ(c->exclusive.get(1), i + 1);
    EXPECT_EQ(c->shared != nullptr, i % 3 == 0);
    if (c->shared) {
      EXPECT_EQ(*c->shared, (VectorClock{i, 7}));
    }
    EXPECT_EQ(&table.get(addr_of(i)), c) << "get() of a present lock adds nothing";
  }
}

TEST(LockTable, LockWithoutClocksIsNotFound) {
  LockTable table;
  table.get(addr_of(1));
  EXPECT_EQ(table.find(addr_of(2)), nullptr);
  EXPECT_NE(table.find(addr_of(1)), nullptr);
}

TEST(LockTable, AddressZeroIsALock) {
  LockTable table;
  EXPECT_EQ(table.find(0), nullptr);
  table.get(0).exclusive.set(2, 9);
  table.get(8).exclusive.set(2, 4);
  ASSERT_NE(table.find(0), nullptr);
  EXPECT_EQ(table.find(0)->exclusive.get(2), 9u);
  EXPECT_EQ(table.find(8)->exclusive.get(2), 4u);
}

// erase() against a std::map model: random adds and erases of addresses
// that crowd a few homes (so probe chains are long and wrap around the
// table's end), through growth; after each step every present lock is
// found with its own clocks and every erased one is not.
TEST(LockTable, EraseKeepsEveryOtherLockReachable) {
  LockTable table;
  std::map<uint64_t, uint64_t> model;  // address -> the mark in its clocks
  uint64_t state = 12345;
  const auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (uint64_t step = 1; step <= 20000; ++step) {
    const uint64_t addr = 8 * (next() % 700);  // 700 addresses, address 0 among them
    if (next() % 3 == 0) {
      table.erase(addr);
      model.erase(addr);
    } else {
      bool added = false;
      LockClocks& c = table.get(addr, added);
      EXPECT_EQ(added, model.count(addr) == 0) << addr;
      if (added) EXPECT_TRUE(c.exclusive.is_zero()) << "a re-added lock starts empty: " << addr;
      c.exclusive.set(0, step);
      model[addr] = step;
    }
    if (step % 997 == 0) {
      ASSERT_EQ(table.size(), model.size());
      for (uint64_t a = 0; a < 8 * 700; a += 8) {
        const LockClocks* c = table.find(a);
        const auto m = model.find(a);
        ASSERT_EQ(c != nullptr, m != model.end()) << a << " at step " << step;
        if (c != nullptr) ASSERT_EQ(c->exclusive.get(0), m->second) << a;
      }
    }
  }
}

}  // namespace
}  // namespace raceaccel::rt
