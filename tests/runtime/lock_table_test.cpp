// LockTable (host/runtime/lock_table.hpp): every lock keeps its own clocks
// through the table's growth, a lock without clocks is not found, and the
// address 0 (which marks empty slots) is a lock like any other.
#include "runtime/lock_table.hpp"

#include <gtest/gtest.h>

#include <cstdint>

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

}  // namespace
}  // namespace raceaccel::rt
