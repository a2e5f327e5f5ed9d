// SiteLog: the site of the access that set an epoch on a byte
// (host/offload/site_log.hpp).
#include <gtest/gtest.h>

#include "offload/site_log.hpp"

namespace raceaccel::offload {
namespace {

TEST(SiteLog, TheFirstAccessOfTheEpochSetsIt) {
  SiteLog log;
  log.record(1, 5, /*granule=*/10, /*write=*/true, 0x01, /*event=*/100, /*site=*/111);
  log.record(1, 5, 10, true, 0x01, 101, 222);  // same epoch: changes nothing in DJIT+
  EXPECT_EQ(log.find(1, 5, 80, true, 200), 111u);
}

TEST(SiteLog, OnlyAccessesBeforeTheRacingEventCount) {
  SiteLog log;
  log.record(1, 5, 10, true, 0x01, 100, 111);
  EXPECT_EQ(log.find(1, 5, 80, true, 100), 0u);
  EXPECT_EQ(log.find(1, 5, 80, true, 101), 111u);
}

TEST(SiteLog, KindByteThreadAndEpochMustMatch) {
  SiteLog log;
  log.record(1, 5, 10, true, 0x02, 100, 111);  // byte 81
  log.record(1, 5, 10, false, 0x01, 101, 222);
  log.record(2, 5, 10, true, 0x01, 102, 333);
  log.record(1, 6, 10, true, 0x01, 103, 444);
  EXPECT_EQ(log.find(1, 5, 81, true, 200), 111u);
  EXPECT_EQ(log.find(1, 5, 80, false, 200), 222u);
  EXPECT_EQ(log.find(2, 5, 80, true, 200), 333u);
  EXPECT_EQ(log.find(1, 6, 80, true, 200), 444u);
  EXPECT_EQ(log.find(1, 5, 80, true, 200), 0u) << "thread 1 wrote byte 80 only in epoch 6";
  EXPECT_EQ(log.find(3, 5, 80, true, 200), 0u);
}

TEST(SiteLog, AFreeInTheEpochStartsItAgain) {
  SiteLog log;
  log.record(1, 5, 10, true, 0x01, 100, 111);
  log.record_reset(101, 80, 8);  // free of granule 10
  log.record(1, 5, 10, true, 0x01, 102, 222);
  EXPECT_EQ(log.find(1, 5, 80, true, 200), 222u);
  EXPECT_EQ(log.find(1, 5, 80, true, 102), 111u) << "before the second write, the first one stands";
  log.record_reset(103, 88, 8);  // a free elsewhere changes nothing
  log.record(1, 5, 10, true, 0x01, 104, 333);
  EXPECT_EQ(log.find(1, 5, 80, true, 200), 222u);
}

TEST(SiteLog, TracesWithoutSitesLogNothing) {
  SiteLog log;
  log.record(1, 5, 10, true, 0x01, 100, 0);
  EXPECT_EQ(log.entries(), 0u);
  EXPECT_EQ(log.find(1, 5, 80, true, 200), 0u);
}

}  // namespace
}  // namespace raceaccel::offload
