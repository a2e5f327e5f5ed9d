// ShardedFastTrack (host/runtime/sharded_fasttrack.hpp) on its own, for
// what the runtime's programs cannot pin down: the clocks of locks in freed
// memory go with it, whether the free is of a few pages (the lock index's
// page look-ups) or of many (its scan of every page), and a lock outside
// the freed range keeps its clocks; a Destroy forgets the lock's clocks
// but not the memory's history; a free of many blocks is forgotten by
// every shard up to its ends.
#include "runtime/sharded_fasttrack.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace raceaccel::rt {
namespace {

class ShardedFreeTest : public ::testing::Test {
 protected:
  ShardedFastTrack ft;
  ClockView t0, t1;
  uint64_t index = 0;
  uint64_t data = 0x1000;  // each hand-off its own (a location reports its first race only)

  void SetUp() override {
    ft.start(0, t0);
    ft.sync(Event::sync(Op::Fork, 0, 1), t0);
    ft.start(1, t1);
  }
  // t0 writes the data inside lock's critical section; memory [free_addr,
  // +free_size) is freed; t1 reads the data inside the same lock's. Returns
  // the races of t1's read.
  std::vector<Race> hand_off(uint64_t lock, uint64_t free_addr, uint64_t free_size, Op forget = Op::Free) {
    std::vector<Race> found;
    data += 0x100;
    ShardedFastTrack::Cursor cursor(ft);
    ft.sync(Event::sync(Op::Acquire, 0, lock), t0);
    ft.access(Event::write(0, data, 8), index++, t0, cursor, found);
    cursor.release();
    ft.sync(Event::sync(Op::Release, 0, lock), t0);
    ft.sync(Event::range(forget, 0, free_addr, free_size), t0);
    ft.sync(Event::sync(Op::Acquire, 1, lock), t1);
    ft.access(Event::read(1, data, 8), index++, t1, cursor, found);
    cursor.release();
    ft.sync(Event::sync(Op::Release, 1, lock), t1);
    return found;
  }
};

TEST_F(ShardedFreeTest, FreeOfTheLocksObjectForgetsIt) {
  EXPECT_EQ(hand_off(0x7f00'0000'1040, 0x7f00'0000'1040, 40).size(), 8u);
}

// pthread_mutex_destroy: the lock starts over as at a free.
TEST_F(ShardedFreeTest, DestroyOfTheLocksObjectForgetsIt) {
  EXPECT_EQ(hand_off(0x7f00'0000'1040, 0x7f00'0000'1040, 40, Op::Destroy).size(), 8u);
}

// A destroy keeps the memory's history (a free would forget the write).
TEST_F(ShardedFreeTest, DestroyKeepsTheMemorysHistory) {
  std::vector<Race> found;
  ShardedFastTrack::Cursor cursor(ft);
  ft.access(Event::write(0, 0x9000, 8), index++, t0, cursor, found);
  cursor.release();
  ft.sync(Event::range(Op::Destroy, 0, 0x9000, 8), t0);
  ft.access(Event::write(1, 0x9000, 8), index++, t1, cursor, found);
  cursor.release();
  EXPECT_EQ(found.size(), 8u);
}

TEST_F(ShardedFreeTest, FreeOfAFewPagesAroundTheLockForgetsIt) {
  EXPECT_EQ(hand_off(0x7f00'0000'5008, 0x7f00'0000'3000, 3 * 4096).size(), 8u);
}

TEST_F(ShardedFreeTest, FreeOfManyPagesForgetsIt) {
  // 256 pages: past the page look-ups, the index scans what it knows.
  EXPECT_EQ(hand_off(0x7f00'0010'0ff8, 0x7f00'0010'0000, 1u << 20).size(), 8u);
}

TEST_F(ShardedFreeTest, LocksOutsideTheFreedRangeKeepTheirClocks) {
  // Freed: the bytes just below and just above the lock, a small and a large range.
  EXPECT_TRUE(hand_off(0x7f00'0000'9000, 0x7f00'0000'8000, 4096).empty());
  EXPECT_TRUE(hand_off(0x7f00'0000'9000, 0x7f00'0000'9001, 64).empty());
  EXPECT_TRUE(hand_off(0x7f00'0000'9000, 0x7f00'0000'9008, 1u << 20).empty());
  EXPECT_TRUE(hand_off(0x7f00'0000'9000, 0, 0).empty()) << "free(NULL)";
}

TEST_F(ShardedFreeTest, ALockMadeAgainAfterTheFreeIsFoundByTheNextFree) {
  const uint64_t lock = 0x7f00'0000'c010;
  EXPECT_EQ(hand_off(lock, lock, 40).size(), 8u);
  EXPECT_EQ(hand_off(lock, lock - 16, 64).size(), 8u) << "the lock's second life is indexed too";
}

// A free of more blocks than there are shards is forgotten by every shard
// at once over the pages it has (forget_memory's large path), not block by
// block: t0 writes 8 bytes in each of 256 blocks (every shard holds some)
// and just outside both unaligned ends of the range; t1, not ordered after
// t0, frees the range and writes the same bytes. Only the two writes
// outside the range race (8 bytes each); a shard that forgot nothing, or
// forgot past an end, would change the count.
TEST_F(ShardedFreeTest, LargeFreeIsForgottenInEveryShardUpToItsEnds) {
  constexpr uint64_t kBlock = 4096, kBlocks = 256;
  const uint64_t base = 0x7e00'0000'0000, first = base + 100, end = base + kBlocks * kBlock - 100;
  std::vector<uint64_t> inside, outside = {base, end + 4};
  for (uint64_t k = 0; k < kBlocks; ++k) inside.push_back(base + k * kBlock + 512);
  std::vector<Race> found;
  ShardedFastTrack::Cursor cursor(ft);
  for (const uint64_t a : inside) ft.access(Event::write(0, a, 8), index++, t0, cursor, found);
  for (const uint64_t a : outside) ft.access(Event::write(0, a, 8), index++, t0, cursor, found);
  cursor.release();
  ft.sync(Event::range(Op::Free, 1, first, end - first), t1);
  for (const uint64_t a : inside) ft.access(Event::write(1, a, 8), index++, t1, cursor, found);
  for (const uint64_t a : outside) ft.access(Event::write(1, a, 8), index++, t1, cursor, found);
  cursor.release();
  ASSERT_EQ(found.size(), 16u);
  for (const Race& r : found) EXPECT_TRUE(r.addr < first || r.addr >= end) << std::hex << r.addr;
}

// The pages one shard's detector holds all share shard_of's hash bits; its
// page table must still spread them (a table homed by the same hash put them
// in 1/64 of its slots: probe chains of thousands of slots, 16 s for a 1 GiB
// block realloc'ed to 2 GiB).
TEST(ShardedFastTrack, OneShardsPagesSpreadOverItsPageTable) {
  PageTable<int> table;
  int page_object = 0;
  std::vector<uint64_t> pages;
  for (uint64_t page = 0x7f00'0000'0; pages.size() < 20'000; ++page) {
    if (ShardedFastTrack::shard_of(page << ShardedFastTrack::kBlockShift) == 0) {
      table.insert(page, &page_object);
      pages.push_back(page);
    }
  }
  size_t longest = 0, total = 0;
  for (const uint64_t page : pages) {
    const size_t probes = table.probes(page);
    longest = std::max(longest, probes);
    total += probes;
  }
  EXPECT_LE(longest, 64u);
  EXPECT_LE(total, 3 * pages.size());  // linear probing at most half full: about 1.5 per lookup
}

}  // namespace
}  // namespace raceaccel::rt
