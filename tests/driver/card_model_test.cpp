// offload::card_throughput: the modelled card's bounds from a run's
// measured cycles and bytes (sweep's kernel_bound_events_per_s,
// pcie_bound_events_per_s and modelled_events_per_s columns).
#include <gtest/gtest.h>

#include "driver/rac_kernel_regs.hpp"
#include "offload/card_model.hpp"

namespace raceaccel::offload {
namespace {

OffloadStats run_of(uint64_t busy_cycles, uint64_t command_words, uint64_t escalations, uint64_t races,
                    uint32_t esc_record_bytes) {
  OffloadStats s;
  s.device.busy_cycles = busy_cycles;
  s.command_words = command_words;
  s.escalations = escalations;  // records the host answered
  s.device.races = races;
  s.capabilities.esc_record_bytes = esc_record_bytes;
  return s;
}

TEST(CardModel, KernelBoundIsTheClockOverBusyCyclesPerEvent) {
  // 1,000 events in 2,000 busy cycles at 300 MHz: 150 M events/s.
  const CardThroughput t = card_throughput(run_of(2000, 0, 0, 0, 128), 1000);
  EXPECT_DOUBLE_EQ(t.kernel_bound, 150e6);
  EXPECT_EQ(t.pcie_bound, 0) << "nothing moved: no PCIe bound";
  EXPECT_DOUBLE_EQ(t.modelled(), 150e6);
}

TEST(CardModel, EachPcieDirectionBoundsOnItsOwn) {
  // Commands: 1,000 words for 1,000 events = one command each.
  const double command_bytes = regs::kCommandBytes;
  CardThroughput t = card_throughput(run_of(1000, 1000, 0, 0, 128), 1000);
  EXPECT_DOUBLE_EQ(t.to_card_bytes_per_event, command_bytes);
  EXPECT_DOUBLE_EQ(t.pcie_bound, 9e9 / command_bytes);
  // Records back: 500 escalations of 256 bytes and 10 races of 64 for 1,000
  // events is 129.28 bytes per event at 12 GB/s, below the command side.
  t = card_throughput(run_of(1000, 1000, 500, 10, 256), 1000);
  EXPECT_DOUBLE_EQ(t.from_card_bytes_per_event, (500.0 * 256 + 10.0 * regs::kRaceRecordBytes) / 1000);
  EXPECT_DOUBLE_EQ(t.pcie_bound, std::min(9e9 / command_bytes, 12e9 / t.from_card_bytes_per_event));
  // The modelled card is the lower bound.
  EXPECT_DOUBLE_EQ(t.modelled(), std::min(t.kernel_bound, t.pcie_bound));
}

TEST(CardModel, AssumptionsAreParameters) {
  CardAssumptions a;
  a.kernel_hz = 250e6;
  a.to_card_bytes_per_s = 4e9;
  const CardThroughput t = card_throughput(run_of(1000, 1000, 0, 0, 128), 1000, a);
  EXPECT_DOUBLE_EQ(t.kernel_bound, 250e6);
  EXPECT_DOUBLE_EQ(t.pcie_bound, 4e9 / regs::kCommandBytes);
}

TEST(CardModel, HostBoundOnlyWhenAssumed) {
  // 1,000 events in 1,000 busy cycles (300 M events/s), one command word each
  // (562.5 M events/s over PCIe): without a host figure, end to end is the card.
  const OffloadStats s = run_of(1000, 1000, 0, 0, 128);
  CardThroughput t = card_throughput(s, 1000);
  EXPECT_EQ(t.host_bound, 0);
  EXPECT_DOUBLE_EQ(t.end_to_end(), t.modelled());
  // At 90 ns per event one host core takes 11.1 M events/s: the end-to-end
  // bound, while modelled() stays the card's alone.
  CardAssumptions a;
  a.host_ns_per_event = 90.0;
  t = card_throughput(s, 1000, a);
  EXPECT_DOUBLE_EQ(t.host_bound, 1e9 / 90.0);
  EXPECT_DOUBLE_EQ(t.modelled(), 300e6);
  EXPECT_DOUBLE_EQ(t.end_to_end(), 1e9 / 90.0);
  // A host faster than the card leaves the card's bound.
  a.host_ns_per_event = 1.0;
  t = card_throughput(s, 1000, a);
  EXPECT_DOUBLE_EQ(t.end_to_end(), 300e6);
}

TEST(CardModel, NoEventsNoBounds) {
  const CardThroughput t = card_throughput(run_of(1000, 1000, 5, 0, 128), 0);
  EXPECT_EQ(t.kernel_bound, 0);
  EXPECT_EQ(t.pcie_bound, 0);
  EXPECT_EQ(t.modelled(), 0);
  EXPECT_EQ(t.end_to_end(), 0);
}

}  // namespace
}  // namespace raceaccel::offload
