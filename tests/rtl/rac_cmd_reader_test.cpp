// rac_cmd_reader under Verilator: the m_axi_cmd read master that streams a
// batch's 16-byte command words. Built once per parameter set (FifoDepth,
// MaxBurst; tests/rtl/CMakeLists.txt), every test against the AXI memory
// model (sim::AxiSlaveModel: seeded latency, RVALID gaps, ARREADY stalls,
// the AR rules checked) with seeded WORD_READY stalls on the bench's side.
//
// Reference model: the words the reader must deliver are memory[base + 16 i]
// for i < words, in order, and it must read exactly the 64-byte beats that
// hold them (ceil((base % 64 / 16 + words) / 4) beats from base & ~63).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "Vrac_cmd_reader.h"
#include "axi_block_bench.hpp"
#include "rtl_harness.hpp"
#include "sparse_memory.hpp"

namespace {

using raceaccel::sim::AxiMasterPins;
using raceaccel::sim::AxiSlaveModel;
using raceaccel::sim::BusTiming;
using raceaccel::sim::SparseMemory;
using Word = std::array<uint8_t, 16>;

constexpr unsigned kFifoDepth = RD_FIFO_DEPTH;
constexpr unsigned kMaxBurst = RD_MAX_BURST;

struct ReaderBench {
  rac_rtl::Harness<Vrac_cmd_reader> h;
  SparseMemory memory;
  std::unique_ptr<AxiSlaveModel> slave;
  rac_rtl::Coin coin;
  std::vector<Word> got;
  unsigned bus_errors = 0;
  uint64_t max_owed_beats = 0;

  ReaderBench(const BusTiming& t, uint64_t seed) : h(test_name()), coin(seed) {
    AxiMasterPins pins;
    RAC_BLOCK_BIND_READ(pins, h.dut());
    slave = std::make_unique<AxiSlaveModel>("m_axi_cmd", pins, memory, t);
    h->start_i = 0;
    h->stop_i = 0;
    h->word_ready_i = 0;
    h.reset();
  }
  static std::string test_name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  // One cycle; `ready_stall` is the chance of withholding WORD_READY.
  void cycle(unsigned ready_stall) {
    slave->drive();
    h->word_ready_i = !coin(ready_stall);
    h.eval();
    slave->sample(h.cycles());
    if (h->word_valid_o && h->word_ready_i) {
      Word w;
      std::memcpy(w.data(), h->word_o.data(), 16);
      got.push_back(w);
    }
    if (h->bus_error_o) ++bus_errors;
    h.tick();
    h->start_i = 0;
    h->stop_i = 0;
  }

  void start(uint64_t base, uint32_t words) {
    h->start_i = 1;
    h->base_i = base;
    h->words_i = words;
    got.clear();
  }

  // Runs until the reader is idle (and the memory model has nothing
  // outstanding); false after `limit` cycles (a hang).
  bool run_until_idle(unsigned ready_stall, uint64_t limit = 200'000) {
    for (uint64_t i = 0; i < limit; ++i) {
      cycle(ready_stall);
      h.eval();
      if (h->idle_o && !slave->busy() && i > 1) return true;
    }
    return false;
  }

  Word expected(uint64_t base, uint32_t i) const {
    Word w;
    std::array<std::byte, 16> b;
    memory.read(base + 16ull * i, b);
    std::memcpy(w.data(), b.data(), 16);
    return w;
  }
};

void fill(SparseMemory& m, uint64_t base, size_t bytes, uint64_t seed) {
  std::vector<std::byte> data(bytes);
  rac_rtl::Coin c(seed);
  for (auto& b : data) b = static_cast<std::byte>(c.bits());
  m.write(base, data);
}

uint64_t beats_for(uint64_t base, uint32_t words) { return words == 0 ? 0 : ((base % 64) / 16 + words + 3) / 4; }

// Every combination of first-word offset, length (0, within one beat, one
// or several bursts, across 4 KB pages) and bus timing: the words arrive in
// order and complete, exactly the needed beats are read, no AXI rule is
// broken and no RTL assertion fails.
TEST(CmdReader, DeliversEveryWordInOrderUnderIdleAndBackPressure) {
  const BusTiming timings[] = {rac_rtl::timing(1, 0, 1), rac_rtl::timing(2, 30, 6), rac_rtl::timing(3, 70, 20)};
  const unsigned ready_stalls[] = {0, 30, 80};
  const uint32_t lengths[] = {0, 1, 3, 4, 5, 63, 64, 65, 4 * kMaxBurst + 1, 700};
  unsigned t = 0;
  for (const BusTiming& timing : timings) {
    ReaderBench b(timing, 100 + t);
    const uint64_t page = 0x12'3456'7000ull;
    fill(b.memory, page, 4 * 4096, 7 + t);
    uint64_t beats = 0;
    for (const uint32_t words : lengths) {
      // Start offsets: word 0..3 of a beat, and just before a 4 KB boundary.
      for (const uint64_t base : {page, page + 16, page + 48, page + 4096 - 64 * 3 + 32}) {
        SCOPED_TRACE("words " + std::to_string(words) + " base " + std::to_string(base - page));
        b.start(base, words);
        ASSERT_TRUE(b.run_until_idle(ready_stalls[t])) << "reader hung";
        ASSERT_EQ(b.got.size(), words);
        for (uint32_t i = 0; i < words; ++i) ASSERT_EQ(b.got[i], b.expected(base, i)) << "word " << i;
        beats += beats_for(base, words);
        EXPECT_EQ(b.slave->stats().read_beats, beats) << "exactly the beats that hold the batch";
      }
    }
    for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
    EXPECT_EQ(b.bus_errors, 0u);
    ++t;
  }
}

// The reader keeps the next beat's address as a 4 KB page (a counter whose
// carries between its 16-bit chunks are registered) and a beat in it, and
// the beats still to request as hi * 256 + lo: batches whose pages carry
// into the counter's second, third and fourth chunk (addresses 2^28, 2^44,
// 2^60) and across 2^32; a batch that ends exactly at a page's end (its
// last burst ends there); lengths whose beat count needs hi (1,024 words
// and more: 256 beats), lo borrowing from hi at once (exactly 1,024 words)
// or starting above 255 (2,047 words from the last word of a beat: 257 + 256
// beats). Every word arrives in order, exactly the batch's beats are read.
TEST(CmdReader, PageAndHighAddressCarries) {
  ReaderBench b(rac_rtl::timing(21, 30, 6), 21);
  const uint64_t bases[] = {(1ull << 28) - 4096 - 64 * 3, (1ull << 32) - 64 * 5 + 16, (1ull << 44) - 8192 + 48,
                            (1ull << 60) - 64};
  const uint32_t lengths[] = {12, 1024, 2047, 2053};
  uint64_t beats = 0;
  for (const uint64_t base : bases) {
    fill(b.memory, base & ~uint64_t{63}, 16 * 2100 + 64, base);
    for (const uint32_t words : lengths) {
      SCOPED_TRACE("words " + std::to_string(words) + " base " + std::to_string(base));
      b.start(base, words);
      ASSERT_TRUE(b.run_until_idle(20)) << "reader hung";
      ASSERT_EQ(b.got.size(), words);
      for (uint32_t i = 0; i < words; ++i) ASSERT_EQ(b.got[i], b.expected(base, i)) << "word " << i;
      beats += beats_for(base, words);
      EXPECT_EQ(b.slave->stats().read_beats, beats) << "exactly the beats that hold the batch";
    }
  }
  // 12 words from 3 beats before a page end: the batch's one burst ends there.
  const uint64_t end = (1ull << 36) - 64 * 3;
  fill(b.memory, end, 64 * 3, 5);
  const uint64_t bursts = b.slave->stats().read_bursts;
  b.start(end, 12);
  ASSERT_TRUE(b.run_until_idle(0));
  ASSERT_EQ(b.got.size(), 12u);
  for (uint32_t i = 0; i < 12; ++i) ASSERT_EQ(b.got[i], b.expected(end, i)) << "word " << i;
  EXPECT_EQ(b.slave->stats().read_bursts, bursts + (kMaxBurst >= 3 ? 1 : 2));
  for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
}

// Bursts are at most MaxBurst beats, and a batch spanning many beats uses
// the longest bursts the 4 KB rule allows (so the reader is not issuing
// single beats).
TEST(CmdReader, BurstsAreAsLongAsAllowed) {
  ReaderBench b(rac_rtl::timing(4, 0, 4), 5);
  const uint64_t base = 0x8000;
  fill(b.memory, base, 4096 * 2, 9);
  const uint32_t words = 4 * 64 * 2;  // two whole pages
  b.start(base, words);
  ASSERT_TRUE(b.run_until_idle(0));
  ASSERT_EQ(b.got.size(), words);
  const uint64_t beats = 128;
  EXPECT_EQ(b.slave->stats().read_beats, beats);
  EXPECT_EQ(b.slave->stats().read_bursts, (64 + kMaxBurst - 1) / kMaxBurst * 2);
  for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
}

// stop_i mid-batch: no word after the stop, no further burst requested, the
// beats owed are drained, and the reader becomes idle.
TEST(CmdReader, StopEndsTheBatchAndDrains) {
  for (const unsigned after : {0u, 1u, 7u, 90u}) {
    ReaderBench b(rac_rtl::timing(10 + after, 40, 12), after);
    const uint64_t base = 0x4'0000;
    fill(b.memory, base, 16 * 1000, after);
    b.start(base, 1000);
    b.cycle(20);
    while (b.got.size() < after) b.cycle(20);
    const size_t at_stop = b.got.size();
    b.h->stop_i = 1;
    ASSERT_TRUE(b.run_until_idle(20));
    EXPECT_LE(b.got.size(), at_stop + 1) << "at most the word taken in the stop cycle";
    EXPECT_LT(b.slave->stats().read_beats, 250u) << "no burst after the stop";
    for (size_t i = 0; i < b.got.size(); ++i) EXPECT_EQ(b.got[i], b.expected(base, static_cast<uint32_t>(i)));
    // A new batch after the stop works.
    b.start(base + 64, 9);
    ASSERT_TRUE(b.run_until_idle(20));
    ASSERT_EQ(b.got.size(), 9u);
    for (uint32_t i = 0; i < 9; ++i) EXPECT_EQ(b.got[i], b.expected(base + 64, i));
    for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0);
  }
}

// SLVERR and DECERR: a failed beat raises bus_error_o, no word from it or
// after it is delivered (what is delivered is a prefix of the batch), every
// beat owed is still accepted, the reader becomes idle, and the next batch
// from good memory is read normally.
TEST(CmdReader, ErrorResponseStopsTheBatchWithoutHanging) {
  for (const uint8_t resp : {uint8_t{2}, uint8_t{3}}) {
    for (const uint64_t bad_beat : {0ull, 5ull, 40ull}) {
      SCOPED_TRACE("resp " + std::to_string(resp) + " beat " + std::to_string(bad_beat));
      ReaderBench b(rac_rtl::timing(20 + bad_beat, 30, 10), resp);
      const uint64_t base = 0x9'0000;
      fill(b.memory, base, 16 * 600, bad_beat);
      b.slave->fail_range(base + 64 * bad_beat, base + 64 * bad_beat + 64, resp);
      b.start(base, 600);
      ASSERT_TRUE(b.run_until_idle(25)) << "reader hung after an error response";
      EXPECT_GE(b.bus_errors, 1u);
      EXPECT_LE(b.got.size(), 4 * bad_beat) << "no word from the failed beat or after it";
      for (size_t i = 0; i < b.got.size(); ++i) EXPECT_EQ(b.got[i], b.expected(base, static_cast<uint32_t>(i)));
      EXPECT_GT(b.slave->stats().error_bursts, 0u);

      const uint64_t good = base + 0x10'0000;
      fill(b.memory, good, 16 * 50, 3);
      const unsigned errors_before = b.bus_errors;
      b.start(good, 50);
      ASSERT_TRUE(b.run_until_idle(25));
      ASSERT_EQ(b.got.size(), 50u);
      for (uint32_t i = 0; i < 50; ++i) EXPECT_EQ(b.got[i], b.expected(good, i));
      EXPECT_EQ(b.bus_errors, errors_before);
      for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
      EXPECT_EQ(b.h.errors(), 0);
    }
  }
}

}  // namespace
