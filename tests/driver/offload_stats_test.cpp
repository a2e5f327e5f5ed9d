// The offload engine's statistics: the device's counts are this checker's
// own (one device serves several traces), and the metadata cache's hit rate
// is measured over every lookup, frees included, so it stays in [0, 1].
#include <gtest/gtest.h>

#include "backends.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

template <typename Backend>
class OffloadStatsTest : public ::testing::Test {};
TYPED_TEST_SUITE(OffloadStatsTest, Backends, BackendNames);

// One written byte, then a free of its page: the free looks up all 512
// granules of the page (TouchedPages), and all but one miss.
offload::OffloadStats write_then_free_page(driver::Device& device) {
  offload::OffloadChecker checker(device);
  checker.process(Event::write(0, 0x10000, 1, 1), 0);
  checker.process(Event::range(Op::Free, 0, 0x10000, 4096, 2), 1);
  checker.finish();
  return checker.stats();
}

TYPED_TEST(OffloadStatsTest, FreesCountAsCacheLookups) {
  auto device = driver::open_device(TypeParam::options());
  const offload::OffloadStats s = write_then_free_page(*device);
  EXPECT_EQ(s.free_commands, 512u);
  EXPECT_EQ(s.device.accesses, 1u);
  EXPECT_EQ(offload::cache_lookups(s), 513u);
  const double rate = offload::cache_hit_rate(s);
  EXPECT_GE(rate, 0.0);
  EXPECT_LE(rate, 1.0);
  if (s.capabilities.sets != 0) {
    // The case that showed a negative rate: more misses than reads and writes.
    EXPECT_GT(s.device.misses, s.device.accesses);
    EXPECT_LE(s.device.misses, offload::cache_lookups(s));
    EXPECT_DOUBLE_EQ(rate, static_cast<double>(513 - s.device.misses) / 513.0);
  }
}

TYPED_TEST(OffloadStatsTest, DeviceCountsAreThisCheckersOwn) {
  auto device = driver::open_device(TypeParam::options());
  const offload::OffloadStats first = write_then_free_page(*device);
  const offload::OffloadStats second = write_then_free_page(*device);
  EXPECT_EQ(second.device.accesses, first.device.accesses);
  EXPECT_EQ(second.device.commands, first.device.commands);
  EXPECT_EQ(second.free_commands, first.free_commands);
}

TEST(CacheHitRate, ClampedToTheUnitInterval) {
  offload::OffloadStats s;
  EXPECT_EQ(offload::cache_hit_rate(s), 0.0);  // no lookups
  s.device.accesses = 1;
  s.free_commands = 3;
  s.device.misses = 2;
  EXPECT_DOUBLE_EQ(offload::cache_hit_rate(s), 0.5);
  s.device.misses = 9;  // a device that counts more misses than lookups
  EXPECT_EQ(offload::cache_hit_rate(s), 0.0);
}

}  // namespace
}  // namespace raceaccel::test
