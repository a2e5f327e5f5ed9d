// Register-level tests of rac_kernel's control slave, through the AXI4-Lite
// master model (seeded idle cycles and back-pressure) on the Verilated
// kernel in its built-in configuration (8 slots, 32-bit clocks, 256 x 4),
// with the AXI memory model's protocol checks live throughout.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "Vrac_kernel_default.h"
#include "kernel_harness.hpp"

namespace raceaccel::kernel_test {
namespace {

using Kernel = sim::KernelSim<Vrac_kernel_default>;
const driver::LineShape kShape{.slots = 8, .clock_bits = 32, .read_vcs = 16};  // the built-in model

sim::KernelSimOptions options(uint64_t seed = 1, unsigned stall = 20) {
  sim::KernelSimOptions o;
  o.timing.seed = seed;
  o.timing.max_latency = 8;
  o.timing.stall_percent = stall;
  o.idle_percent = 20;
  o.trace_tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return o;
}

// Slot s's row: its own lane at `own`, the others zero. Two slots with such
// rows are concurrent.
std::vector<uint64_t> own_row(unsigned slot, uint64_t own) {
  std::vector<uint64_t> lanes(kShape.slots, 0);
  lanes[slot] = own;
  return lanes;
}

TEST(KernelRegisters, ResetValues) {
  Kernel k(options());
  EXPECT_EQ(k.read_register(regs::kCtrl), regs::kCtrlIdle);
  for (uint32_t offset : {regs::kGie,
                          regs::kIer,
                          regs::kIsr,
                          regs::kCommands,
                          regs::kCommands + 4,
                          regs::kCommandWords,
                          regs::kFlags,
                          regs::kRaces,
                          regs::kRaceCapacity,
                          regs::kEscalations,
                          regs::kEscCapacity,
                          regs::kBuckets,
                          regs::kBucketBits,
                          regs::kStatus,
                          regs::kRacesWritten,
                          regs::kEscalationsWritten,
                          regs::kWordsDone,
                          regs::kStatBusyCycles,
                          regs::kStatRaces,
                          regs::kStatSpills,
                          0x7Cu,
                          0xFFCu}) {
    EXPECT_EQ(k.read_register(offset), 0u) << "offset 0x" << std::hex << offset;
  }
  const uint32_t c1 = k.read_register(regs::kStatCycles);
  const uint32_t c2 = k.read_register(regs::kStatCycles);
  EXPECT_GT(c2, c1) << "stat_cycles counts every cycle";
  EXPECT_FALSE(k.interrupt());
  expect_clean(k);
}

TEST(KernelRegisters, Capabilities) {
  Kernel k(options());
  EXPECT_EQ(k.read_register(regs::kCapMagic), regs::kMagic);
  EXPECT_EQ(k.read_register(regs::kCapVersion), regs::kRegMapVersion);
  EXPECT_EQ(k.read_register(regs::kCapSlots), 8u);
  EXPECT_EQ(k.read_register(regs::kCapClockBits), 32u);
  EXPECT_EQ(k.read_register(regs::kCapSets), 256u);
  EXPECT_EQ(k.read_register(regs::kCapWays), 4u);
  EXPECT_EQ(k.read_register(regs::kCapLineBits), kShape.line_bits());
  EXPECT_EQ(k.read_register(regs::kCapObjects), 16u);
  EXPECT_EQ(k.read_register(regs::kCapReadVcs), 16u);
  EXPECT_EQ(k.read_register(regs::kCapEscRecordBytes), kShape.esc_record_bytes());
  EXPECT_EQ(k.read_register(regs::kCapFeatures), regs::kFeatureImportLine | regs::kFeatureAtomicAccess)
      << "the RTL executes op 7 (import-line) and ops 9-10 (atomic accesses)";
  EXPECT_EQ(k.read_register(regs::kCapBucketWays), 4u) << "the built-in kernel's buckets have 4 ways";
  EXPECT_EQ(k.read_register(regs::kCapReadVcWays), 1u) << "one read clock per line in the RTL";
  EXPECT_EQ(k.read_register(regs::kCapReadVcWays + 4), 0u) << "unmapped offsets read 0";
  // Read-only registers ignore writes.
  k.write_register(regs::kCapSlots, 99);
  k.write_register(regs::kStatus, 7);
  EXPECT_EQ(k.read_register(regs::kCapSlots), 8u);
  EXPECT_EQ(k.read_register(regs::kStatus), 0u);
  expect_clean(k);
}

TEST(KernelRegisters, ArgumentsReadBackWithByteStrobes) {
  Kernel k(options(7));
  const std::array<uint32_t, 13> args = {
      regs::kCommands,  regs::kCommands + 4, regs::kCommandWords, regs::kFlags,           regs::kRaces,
      regs::kRaces + 4, regs::kRaceCapacity, regs::kEscalations,  regs::kEscalations + 4, regs::kEscCapacity,
      regs::kBuckets,   regs::kBuckets + 4,  regs::kBucketBits};
  for (size_t i = 0; i < args.size(); ++i) k.write_register(args[i], 0x11111111u * static_cast<uint32_t>(i + 1));
  for (size_t i = 0; i < args.size(); ++i) {
    EXPECT_EQ(k.read_register(args[i]), 0x11111111u * static_cast<uint32_t>(i + 1)) << "argument " << i;
  }
  k.write_register(regs::kCommandWords, 0xAABBCCDDu, 0x2);  // only byte 1
  EXPECT_EQ(k.read_register(regs::kCommandWords), 0x3333CC33u);
  expect_clean(k);
}

// ap_start → ap_idle low (start taken) → ap_done and ap_ready, clear on read.
TEST(KernelRegisters, StartIdleDoneReadyClearOnRead) {
  Kernel k(options(3));
  Batch batch(kShape);
  for (unsigned i = 0; i < 300; ++i) batch.access(regs::kOpWrite, i % 8, 0x1000 + i, 0xFF);
  Buffers b;
  k.memory().write(b.commands, batch.bytes());
  write_arguments(k, b, batch.words(), 0, batch.words(), 3 * batch.words());
  k.write_register(regs::kCtrl, regs::kCtrlStart);
  bool saw_running = false;
  uint32_t ctrl = 0;
  for (int polls = 0; polls < 10'000; ++polls) {
    ctrl = k.read_register(regs::kCtrl);
    if (ctrl & regs::kCtrlDone) break;
    if (!(ctrl & regs::kCtrlIdle)) {
      saw_running = true;
      EXPECT_EQ(ctrl & regs::kCtrlStart, 0u) << "ap_start is cleared when the kernel takes the batch";
      EXPECT_EQ(ctrl & regs::kCtrlReady, 0u);
    }
  }
  EXPECT_TRUE(saw_running) << "a 300-word batch runs longer than one register read";
  EXPECT_EQ(ctrl, regs::kCtrlDone | regs::kCtrlIdle | regs::kCtrlReady);
  EXPECT_EQ(k.read_register(regs::kCtrl), regs::kCtrlIdle) << "ap_done and ap_ready clear on read";
  EXPECT_EQ(k.read_register(regs::kStatus), regs::kStatusOk);
  EXPECT_EQ(k.read_register(regs::kWordsDone), 300u);
  EXPECT_EQ(k.read_register(regs::kRacesWritten), 0u);  // all rows are zero: every access is ordered
  EXPECT_EQ(k.read_register(regs::kStatCommands), 300u) << "the kernel's own zeroing set-rows are not counted";
  EXPECT_EQ(k.read_register(regs::kStatAccesses), 300u);
  EXPECT_GT(k.read_register(regs::kStatBusyCycles), 300u);
  expect_clean(k);
}

TEST(KernelRegisters, InterruptStatusToggles) {
  Kernel k(options(4));
  Batch batch(kShape);
  batch.access(regs::kOpRead, 0, 5, 0x0F);
  Buffers b;
  k.write_register(regs::kGie, 1);
  k.write_register(regs::kIer, 1);  // done only
  run_batch(k, batch, b);
  EXPECT_EQ(k.read_register(regs::kIsr), 1u);
  EXPECT_TRUE(k.interrupt());
  k.write_register(regs::kIsr, 1);  // toggle: clears
  EXPECT_EQ(k.read_register(regs::kIsr), 0u);
  EXPECT_FALSE(k.interrupt());
  k.write_register(regs::kIsr, 2);  // toggles the ready bit on
  EXPECT_EQ(k.read_register(regs::kIsr), 2u);
  EXPECT_TRUE(k.interrupt());
  k.write_register(regs::kGie, 0);
  EXPECT_FALSE(k.interrupt()) << "GIE masks the interrupt line";
  k.write_register(regs::kIsr, 2);
  k.write_register(regs::kIer, 0);
  k.write_register(regs::kGie, 1);
  run_batch(k, batch, b);
  EXPECT_EQ(k.read_register(regs::kIsr), 0u) << "with IER clear, done sets no status bit";
  EXPECT_FALSE(k.interrupt());
  k.write_register(regs::kIer, 3);
  run_batch(k, batch, b);
  EXPECT_EQ(k.read_register(regs::kIsr), 3u);
  expect_clean(k);
}

TEST(KernelRegisters, BadArgumentsEndTheBatchWithStatus2) {
  Kernel k(options(5));
  Batch batch(kShape);
  for (unsigned i = 0; i < 10; ++i) batch.access(regs::kOpWrite, 0, 100 + i, 0xFF);
  Buffers good;
  k.memory().write(good.commands, batch.bytes());
  const uint32_t n = batch.words();
  struct Case {
    const char* what;
    Buffers b;
    uint32_t race_cap, esc_cap;
  };
  std::vector<Case> cases;
  cases.push_back({"race capacity below the word count", good, n - 1, 3 * n});
  cases.push_back(
      {"escalation capacity below three times the word count (the model has a read-VC pool)", good, n, 3 * n - 1});
  Buffers b = good;
  b.bucket_bits = 0;
  cases.push_back({"bucket_bits 0", b, n, 3 * n});
  b.bucket_bits = 31;
  cases.push_back({"bucket_bits 31", b, n, 3 * n});
  b = good;
  b.commands += 8;
  cases.push_back({"commands not 16-byte aligned", b, n, 3 * n});
  b = good;
  b.races += 32;
  cases.push_back({"races not 64-byte aligned", b, n, 3 * n});
  b = good;
  b.escalations += 32;
  cases.push_back({"escalations not 64-byte aligned", b, n, 3 * n});
  b = good;
  b.buckets += 2048;
  cases.push_back({"buckets not 4 KB aligned", b, n, 3 * n});
  for (const Case& c : cases) {
    write_arguments(k, c.b, n, 0, c.race_cap, c.esc_cap);
    k.write_register(regs::kCtrl, regs::kCtrlStart);
    wait_done(k);
    EXPECT_EQ(k.read_register(regs::kStatus), regs::kStatusBadArgs) << c.what;
    EXPECT_EQ(k.read_register(regs::kWordsDone), 0u) << c.what;
  }
  EXPECT_EQ(k.read_register(regs::kStatAccesses), 0u) << "no word of a rejected batch reaches the engine";
  // The kernel is still usable.
  const BatchResult r = run_batch(k, batch, good);
  EXPECT_EQ(r.status, regs::kStatusOk);
  EXPECT_EQ(r.words_done, n);
  expect_clean(k);
}

TEST(KernelRegisters, ReservedOpAndBadSlotStopTheFeedAtThatWord) {
  for (const bool bad_slot : {false, true}) {
    Kernel k(options(6));
    Batch batch(kShape);
    batch.set_row(0, own_row(0, 1));
    batch.set_row(1, own_row(1, 1));
    batch.access(regs::kOpWrite, 0, 77, 0xFF);
    const uint32_t racy = batch.access(regs::kOpWrite, 1, 77, 0x0F);  // concurrent: a race
    const uint32_t bad = bad_slot ? batch.access(regs::kOpWrite, 8, 78, 0xFF)
                                  : batch.add({.op = 8, .slot = 0, .mask = 0xFF, .granule = 78});
    batch.access(regs::kOpWrite, 1, 77, 0xF0);  // would race too, but is never executed
    const BatchResult r = run_batch(k, batch, Buffers{});
    EXPECT_EQ(r.status, regs::kStatusBadOp) << (bad_slot ? "slot 8" : "op 8");
    EXPECT_EQ(r.words_done, bad);
    ASSERT_EQ(r.races.size(), 1u) << "the records of the words before the bad one are complete";
    EXPECT_EQ(r.races[0].word, racy);
    EXPECT_EQ(r.races[0].mask, 0x0Fu);
    expect_clean(k);
  }
}

TEST(KernelRegisters, TruncatedSetRowEndsWithStatus3) {
  Kernel k(options(8));
  Batch batch(kShape);
  batch.access(regs::kOpWrite, 0, 1, 0xFF);
  const uint32_t row = batch.set_row(0, own_row(0, 5));
  ASSERT_EQ(kShape.row_words(), 2u);
  Buffers b;
  k.memory().write(b.commands, batch.bytes());
  for (uint32_t cut = row + 1; cut <= row + 2; ++cut) {  // the set-row word alone, and with one data word
    write_arguments(k, b, cut, 0, cut, 3 * cut);
    k.write_register(regs::kCtrl, regs::kCtrlStart);
    wait_done(k);
    EXPECT_EQ(k.read_register(regs::kStatus), regs::kStatusTruncated) << "batch of " << cut << " words";
    EXPECT_EQ(k.read_register(regs::kWordsDone), row);
  }
  expect_clean(k);
}

// The checker's state persists across launches: the same words split into
// several back-to-back launches give the records one launch gives.
TEST(KernelRegisters, BackToBackLaunchesKeepState) {
  Batch all(kShape);
  std::vector<uint32_t> starts;  // first word of each command (a set-row spans 3 words)
  starts.push_back(all.set_row(0, own_row(0, 1)));
  starts.push_back(all.set_row(1, own_row(1, 1)));
  for (unsigned i = 0; i < 40; ++i) starts.push_back(all.access(regs::kOpWrite, 0, 1000 + i, 0xFF));
  for (unsigned i = 0; i < 40; ++i) {
    starts.push_back(all.access(i % 2 ? regs::kOpWrite : regs::kOpRead, 1, 1000 + i, 0x3C));
  }
  starts.push_back(all.words());
  Kernel one(options(9));
  const BatchResult whole = run_batch(one, all, Buffers{});
  ASSERT_EQ(whole.status, regs::kStatusOk);
  ASSERT_EQ(whole.races.size(), 40u);

  // The same words in launches of at most 7 words, cut between commands.
  Kernel k(options(10));
  std::vector<RaceRecord> races;
  size_t next = 0;
  int launches = 0;
  while (starts[next] < all.words()) {
    size_t end = next + 1;
    while (starts[end] < all.words() && starts[end + 1] - starts[next] <= 7) ++end;
    const uint32_t first = starts[next], last = starts[end];
    Batch part(kShape);
    for (uint32_t w = first; w < last; ++w) part.raw(std::span<const std::byte, 16>(all.bytes().data() + 16 * w, 16));
    const BatchResult r = run_batch(k, part, Buffers{});
    ASSERT_EQ(r.status, regs::kStatusOk);
    ASSERT_EQ(r.words_done, last - first);
    for (RaceRecord rec : r.races) {
      rec.word += first;
      races.push_back(rec);
    }
    next = end;
    ++launches;
  }
  EXPECT_GT(launches, 10);
  EXPECT_EQ(races, whole.races);
  expect_clean(k);
}

// Two launches queued: ap_start written again while the first runs starts
// the second as soon as the first is done.
TEST(KernelRegisters, StartWhileRunningQueuesTheNextLaunch) {
  Kernel k(options(11));
  Batch batch(kShape);
  for (unsigned i = 0; i < 400; ++i) batch.access(regs::kOpRead, i % 8, 5000 + i, 0xFF);
  Buffers b;
  k.memory().write(b.commands, batch.bytes());
  write_arguments(k, b, batch.words(), 0, batch.words(), 3 * batch.words());
  k.write_register(regs::kCtrl, regs::kCtrlStart);
  while (k.read_register(regs::kCtrl) & regs::kCtrlIdle) {
  }
  k.write_register(regs::kCtrl, regs::kCtrlStart);  // queued
  EXPECT_EQ(k.read_register(regs::kCtrl) & (regs::kCtrlStart | regs::kCtrlIdle), regs::kCtrlStart);
  wait_done(k);
  // The second launch is taken right after the first.
  EXPECT_EQ(k.read_register(regs::kCtrl) & regs::kCtrlStart, 0u);
  wait_done(k);
  EXPECT_EQ(k.read_register(regs::kCtrl), regs::kCtrlIdle);
  EXPECT_EQ(k.read_register(regs::kStatAccesses), 800u);
  expect_clean(k);
}

// AXI error responses (docs/kernel-interface.md, status_bus_error): an
// SLVERR or DECERR on any m_axi port ends the batch with status 4 and the
// port's bit, the kernel finishes (no hang, every burst answered), and a
// launch with clear_state and good memory works again.
TEST(KernelRegisters, BusErrorsEndTheBatchWithStatus4AndThePortsBit) {
  struct Case {
    const char* what;
    unsigned port;  // 0 cmd, 1 race, 2 esc, 3 meta
    uint8_t resp;   // 2 SLVERR, 3 DECERR
    uint32_t bit;
  };
  for (const Case& c : {Case{"cmd", 0, 2, regs::kStatusBusErrorCmd}, Case{"race", 1, 3, regs::kStatusBusErrorRace},
                        Case{"esc", 2, 2, regs::kStatusBusErrorEsc}, Case{"meta", 3, 3, regs::kStatusBusErrorMeta}}) {
    SCOPED_TRACE(c.what);
    Kernel k(options(40 + c.port));
    Batch batch(kShape);
    batch.set_row(0, own_row(0, 1));
    batch.set_row(1, own_row(1, 1));
    for (unsigned i = 0; i < 60; ++i) {
      batch.access(regs::kOpWrite, 0, 100 + i, 0xFF);
      batch.access(regs::kOpWrite, 1, 100 + i, 0x01);        // a race per pair
      batch.access(regs::kOpRead, 0, 5000 + i, 0xFF, true);  // a forced escalation
    }
    Buffers b;
    const uint64_t bases[] = {b.commands + 64 * 20, b.races, b.escalations, b.buckets};
    k.port(c.port).fail_range(bases[c.port], bases[c.port] + (c.port == 3 ? (1ull << 30) : 64 * 4), c.resp);
    const BatchResult r = run_batch(k, batch, b, regs::kFlagClearState);
    EXPECT_EQ(r.status, regs::kStatusBusError | c.bit);
    EXPECT_GT(k.port_stats(c.port).error_bursts, 0u);
    EXPECT_LE(r.words_done, batch.words());
    if (c.port == 0) {
      EXPECT_LE(r.words_done, 80u) << "no word at or after the failed beat is consumed";
    }
    EXPECT_FALSE(k.bus_busy()) << "every burst answered before ap_done";
    expect_clean(k);

    // The same batch from good memory, after clear_state: a clean start.
    const BatchResult again = run_batch(k, batch, moved_up(b), regs::kFlagClearState);
    EXPECT_EQ(again.status, regs::kStatusOk);
    EXPECT_EQ(again.words_done, batch.words());
    EXPECT_EQ(again.races.size(), 60u);
    expect_clean(k);
  }
}

}  // namespace
}  // namespace raceaccel::kernel_test
