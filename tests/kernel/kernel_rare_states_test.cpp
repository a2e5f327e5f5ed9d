// Rare states of the kernel on the coverage models (the tiny kernels built
// with the RTL's cover points, tests/kernel/CMakeLists.txt): each test
// drives one state that kernel.coverage found no other test reaching on
// those models, and checks what the contract says happens there
// (docs/kernel-interface.md; docs/verification.md, "Cover points").
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "Vrac_kernel_tiny.h"
#include "Vrac_kernel_tiny_pool.h"
#include "kernel_harness.hpp"

namespace raceaccel::kernel_test {
namespace {

// Both tiny shapes have 8 slots of 32-bit clocks (the row layout set-row uses).
const driver::LineShape kTiny{.slots = 8, .clock_bits = 32, .read_vcs = 0};
const driver::LineShape kTinyPool{.slots = 8, .clock_bits = 32, .read_vcs = 2, .read_vc_ways = 2};

sim::KernelSimOptions options(uint64_t seed) {
  sim::KernelSimOptions o;
  o.timing.seed = seed;
  o.timing.max_latency = 6;
  o.timing.stall_percent = 20;
  o.idle_percent = 10;
  o.trace_tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return o;
}

std::vector<uint64_t> own_row(unsigned slot, uint64_t own) { return kernel_test::own_row(8, slot, own); }

// A bus error on any port on the pool model too (its escalation records
// are three beats): kernel_harness.hpp.
TEST(KernelRareStates, BusErrorOnEachPortOfThePoolModel) {
  expect_bus_errors_end_the_batch<Vrac_kernel_tiny_pool>(
      kTinyPool,
      {.pairs = 40, .failed_command_beat = 10, .failed_record_beats = 6, .first_seed = 60, .cmd_response = 3},
      [](uint64_t seed) { return options(seed); });
}

// A fill whose miss-ahead entry's bucket read fails while the fill waits
// for it (cov_fill_reads_again): the entry is dropped and the fill reads
// the bucket itself, which fails too, so the batch ends with the meta
// port's bus error, every burst answered; then it runs clean from good
// memory. A fixed latency of 150 cycles makes the fill ask while the
// entry's read is in flight: the first miss is read the slow way (its
// hint comes too late), the second's entry read goes out behind it.
TEST(KernelRareStates, FillWhoseEntryReadFailsReadsItsBucketAgain) {
  sim::KernelSimOptions o = options(80);
  o.timing.min_latency = o.timing.max_latency = 150;
  o.timing.stall_percent = 0;
  o.idle_percent = 0;
  sim::KernelSim<Vrac_kernel_tiny> k(o);
  Batch batch(kTiny);
  batch.set_row(0, own_row(0, 1));
  constexpr uint64_t kFirst = 100, kSecond = 200;
  batch.access(regs::kOpWrite, 0, kFirst, 0xFF);
  batch.access(regs::kOpWrite, 0, kSecond, 0xFF);
  Buffers b;
  ASSERT_NE(driver::bucket_of(kFirst, b.bucket_bits), driver::bucket_of(kSecond, b.bucket_bits));
  constexpr uint64_t kBucketBytes = 4 * 128;  // the tiny model's 4-way buckets
  const uint64_t bad = b.buckets + driver::bucket_of(kSecond, b.bucket_bits) * kBucketBytes;
  k.port(3).fail_range(bad, bad + kBucketBytes, 2);
  const BatchResult r = run_batch(k, batch, b, regs::kFlagClearState);
  EXPECT_EQ(r.status, regs::kStatusBusError | regs::kStatusBusErrorMeta);
  EXPECT_FALSE(k.bus_busy()) << "every burst answered before ap_done";
  expect_clean(k);

  const BatchResult again = run_batch(k, batch, moved_up(b), regs::kFlagClearState);
  EXPECT_EQ(again.status, regs::kStatusOk);
  EXPECT_EQ(again.words_done, batch.words());
  expect_clean(k);
}

// A batch that ends inside a set-row's data words stops there with status 3
// (words_done = the set-row's index) on the tiny model.
TEST(KernelRareStates, TruncatedSetRowOnTheTinyModel) {
  sim::KernelSim<Vrac_kernel_tiny> k(options(70));
  Batch batch(kTiny);
  batch.access(regs::kOpWrite, 0, 1, 0xFF);
  const uint32_t row = batch.set_row(0, own_row(0, 5));
  Buffers b;
  k.memory().write(b.commands, batch.bytes());
  write_arguments(k, b, row + 1, 0, row + 1, 3 * (row + 1));
  k.write_register(regs::kCtrl, regs::kCtrlStart);
  wait_done(k);
  EXPECT_EQ(k.read_register(regs::kStatus), regs::kStatusTruncated);
  EXPECT_EQ(k.read_register(regs::kWordsDone), row);
  expect_clean(k);
}

// Commands that straddle a 4 KB boundary: the reader cuts its burst there,
// and every word still arrives once and in order — the same records as from
// a buffer that starts on a boundary.
TEST(KernelRareStates, CommandsAcrossA4KBoundary) {
  Batch batch(kTiny);
  batch.set_row(0, own_row(0, 1));
  batch.set_row(1, own_row(1, 1));
  for (unsigned i = 0; i < 120; ++i) {
    batch.access(regs::kOpWrite, i % 2, 40 + i % 9, 0x0F << (i % 5));  // races between the two slots
    batch.access(regs::kOpRead, (i + 1) % 2, 40 + i % 9, 0xF0);
  }
  std::vector<BatchResult> results;
  for (const uint64_t offset : {uint64_t{0}, uint64_t{4096 - 128}, uint64_t{4096 - 16}}) {
    SCOPED_TRACE(offset);
    sim::KernelSim<Vrac_kernel_tiny> k(options(80));
    Buffers b;
    b.commands += offset;
    results.push_back(run_batch(k, batch, b, regs::kFlagClearState));
    EXPECT_EQ(results.back().status, regs::kStatusOk);
    EXPECT_EQ(results.back().words_done, batch.words());
    expect_clean(k);
  }
  ASSERT_FALSE(results[0].races.empty());
  for (size_t i = 1; i < results.size(); ++i) {
    EXPECT_EQ(results[i].races, results[0].races);
    EXPECT_EQ(results[i].escalations.size(), results[0].escalations.size());
  }
}

// Three lines become read-shared on a 2-entry pool (one set of two ways):
// the third line's clock takes an entry from one of the other two, whose
// clock leaves in a read-clock spill (reason 5) carrying it, and no
// escalation of the third line is needed.
TEST(KernelRareStates, AThirdSharedLineDisplacesAPoolClock) {
  sim::KernelSim<Vrac_kernel_tiny_pool> k(options(90));
  Batch batch(kTinyPool);
  batch.set_row(0, own_row(0, 1));
  batch.set_row(1, own_row(1, 1));
  const uint64_t lines[] = {16, 17, 18};  // cache sets 0, 1, 0: all three stay on chip
  std::vector<uint32_t> third_words;
  for (const uint64_t g : lines) {
    batch.access(regs::kOpRead, 0, g, 0xFF);
    const uint32_t w = batch.access(regs::kOpRead, 1, g, 0xFF);  // concurrent: READ SHARE
    if (g == lines[2]) third_words.push_back(w);
  }
  const BatchResult r = run_batch(k, batch, Buffers{}, regs::kFlagClearState);
  EXPECT_EQ(r.status, regs::kStatusOk);
  EXPECT_TRUE(r.races.empty());
  unsigned spills = 0;
  for (const EscalationRecord& e : r.escalations) {
    EXPECT_EQ(e.reason, regs::kReasonReadVcSpill) << "granule " << e.granule;
    if (e.reason != regs::kReasonReadVcSpill) continue;
    ++spills;
    EXPECT_TRUE(e.granule == lines[0] || e.granule == lines[1]) << e.granule;
    EXPECT_EQ(e.word, third_words[0]) << "the command that took the entry";
    EXPECT_TRUE(e.read_clock_valid);
  }
  EXPECT_EQ(spills, 1u);
  expect_clean(k);
}

}  // namespace
}  // namespace raceaccel::kernel_test
