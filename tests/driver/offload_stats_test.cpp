// The offload engine's statistics: the device's counts are this checker's
// own (one device serves several traces), the metadata cache's hit rate
// is measured over every lookup, frees included, so it stays in [0, 1], and
// accesses decided on chip and escalations by first cause add up.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "backends.hpp"
#include "gen/generator.hpp"
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

// The accelerator's honest measure: accesses decided on chip, and every
// escalated access counted once under its first cause. On 2 slots of a
// kernel without ops 9-10 (the RTL's today): T2 has no slot (slotless), an
// atomic store is forced (atomic), and a later plain read of the atomic's
// bytes, concurrent with it, is forced for that conflict (atomic too: the
// host checks plain accesses against the atomic history it keeps).
TEST(AcceleratorStats, EscalationsByFirstCause) {
  driver::DeviceOptions o;
  o.software_slots = 2;
  o.software_atomic_access = false;
  auto device = driver::open_device(o);
  offload::OffloadChecker checker(*device);
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::sync(Op::Fork, 0, 2),
      Event::write(0, 0x100, 8),                                          // on chip
      Event::write(1, 0x200, 8),                                          // on chip
      Event::write(2, 0x300, 4),                                          // slotless
      Event::atomic(Op::AtomicStore, 0, 0x400, 4, MemoryOrder::Release),  // atomic
      Event::read(1, 0x400, 4),                                           // atomic (races with the store)
      Event::read(0, 0x100, 8),                                           // on chip
  };
  for (uint64_t i = 0; i < events.size(); ++i) checker.process(events[i], i);
  checker.finish();
  const offload::OffloadStats s = checker.stats();
  EXPECT_EQ(s.access_commands, 6u);
  EXPECT_EQ(s.escalated_accesses, 3u);
  EXPECT_EQ(s.on_chip(), 3u);
  const auto cause = [&](offload::EscalationCause c) { return s.causes[static_cast<size_t>(c)]; };
  EXPECT_EQ(cause(offload::EscalationCause::Slotless), 1u);
  EXPECT_EQ(cause(offload::EscalationCause::Atomic), 2u);
  EXPECT_EQ(cause(offload::EscalationCause::HostOwned), 0u);
  uint64_t total = 0;
  for (const uint64_t n : s.causes) total += n;
  EXPECT_EQ(total, 3u);
  EXPECT_EQ(checker.races().size(), 4u);
  EXPECT_GT(s.host_time.count(), 0);
}

// The same trace on a kernel with ops 9-10: the atomic store is decided on
// chip, and the plain read that races with it is the one access escalated
// for an atomic (cause atomic: the host found the conflict before sending
// it); nothing is host-owned.
TEST(AcceleratorStats, AtomicAccessesOnChipLeaveOnlyTheirConflictsToTheHost) {
  driver::DeviceOptions o;
  o.software_slots = 2;
  auto device = driver::open_device(o);
  offload::OffloadChecker checker(*device);
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::sync(Op::Fork, 0, 2),
      Event::write(0, 0x100, 8),                                          // on chip
      Event::write(1, 0x200, 8),                                          // on chip
      Event::write(2, 0x300, 4),                                          // slotless
      Event::atomic(Op::AtomicStore, 0, 0x400, 4, MemoryOrder::Release),  // on chip (op 10)
      Event::read(1, 0x400, 4),                                           // atomic: concurrent with the store
      Event::read(0, 0x100, 8),                                           // on chip
  };
  for (uint64_t i = 0; i < events.size(); ++i) checker.process(events[i], i);
  checker.finish();
  const offload::OffloadStats s = checker.stats();
  EXPECT_EQ(s.access_commands, 6u);
  EXPECT_EQ(s.escalated_accesses, 2u);
  EXPECT_EQ(s.on_chip(), 4u);
  EXPECT_EQ(s.atomic_commands, 1u);
  EXPECT_EQ(s.atomic_conflicts, 1u);
  const auto cause = [&](offload::EscalationCause c) { return s.causes[static_cast<size_t>(c)]; };
  EXPECT_EQ(cause(offload::EscalationCause::Slotless), 1u);
  EXPECT_EQ(cause(offload::EscalationCause::Atomic), 1u);
  EXPECT_EQ(cause(offload::EscalationCause::HostOwned), 0u);
  ASSERT_EQ(checker.races().size(), 4u);
  EXPECT_TRUE(checker.races()[0].prev_atomic);
}

// On random traces the causes of escalated accesses add up to the
// escalated accesses (the spill records are counted on their own).
TYPED_TEST(OffloadStatsTest, CausesAddUpToTheEscalatedAccesses) {
  auto device = driver::open_device(TypeParam::options());
  GeneratorOptions g;
  g.seed = 5;
  g.threads = 12;
  g.events = 4000;
  g.atomic_mixing = true;
  TraceGenerator generator(g);
  offload::OffloadChecker checker(*device);
  Event e;
  for (uint64_t i = 0; generator.next(e); ++i) checker.process(e, i);
  checker.finish();
  const offload::OffloadStats s = checker.stats();
  EXPECT_EQ(s.access_commands, s.device.accesses);
  uint64_t total = 0;
  for (size_t i = 0; i < s.causes.size(); ++i) {
    const auto c = static_cast<offload::EscalationCause>(i);
    if (c != offload::EscalationCause::BucketSpill && c != offload::EscalationCause::ReadClockSpill)
      total += s.causes[i];
  }
  EXPECT_EQ(total, s.escalated_accesses);
  EXPECT_EQ(s.causes[static_cast<size_t>(offload::EscalationCause::BucketSpill)], s.spills);
  EXPECT_EQ(s.causes[static_cast<size_t>(offload::EscalationCause::ReadClockSpill)], s.read_clock_spills);
  EXPECT_GT(s.escalated_accesses, 0u);
  EXPECT_LT(s.escalated_accesses, s.access_commands);
  EXPECT_EQ(s.causes[static_cast<size_t>(offload::EscalationCause::Other)], 0u);
}

// The software device, each launch made slow: the host's time must not
// take the launches in (OffloadChecker times a sample of process() calls
// and takes out the launches inside a timed call; scaled up, a launch left
// in would count about 32 times over).
class SlowLaunches final : public driver::Device {
 public:
  SlowLaunches() : inner_(driver::open_device(driver::DeviceOptions{})) {}
  std::string_view backend() const override { return "slow"; }
  std::unique_ptr<driver::Buffer> allocate(size_t bytes) override { return inner_->allocate(bytes); }
  void write_register(uint32_t offset, uint32_t value) override { inner_->write_register(offset, value); }
  uint32_t read_register(uint32_t offset) override { return inner_->read_register(offset); }
  void start() override {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    inner_->start();
  }
  bool wait(std::chrono::milliseconds timeout) override { return inner_->wait(timeout); }

 private:
  std::unique_ptr<driver::Device> inner_;
};

TEST(AcceleratorStats, HostTimeLeavesTheLaunchesOut) {
  SlowLaunches device;
  offload::OffloadOptions o;
  o.batch_words = 64;  // a launch every few dozen events: some fall into timed calls
  offload::OffloadChecker checker(device, o);
  GeneratorOptions g;
  g.seed = 3;
  g.events = 6000;
  TraceGenerator generator(g);
  Event e;
  for (uint64_t i = 0; generator.next(e); ++i) checker.process(e, i);
  checker.finish();
  const offload::OffloadStats s = checker.stats();
  ASSERT_GT(s.batches, 200u);
  // The launches sleep 1 ms each; the host's work on 6,000 events is a
  // few ms even on a loaded machine.
  EXPECT_GE(s.launch_time, s.batches * std::chrono::milliseconds(1));
  EXPECT_GT(s.host_time.count(), 0);
  EXPECT_LT(s.host_time, s.launch_time / 4)
      << "host " << s.host_time.count() << " ns, launches " << s.launch_time.count() << " ns";
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
