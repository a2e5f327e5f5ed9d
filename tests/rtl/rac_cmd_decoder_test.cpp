// rac_cmd_decoder under Verilator: the 16-byte command words of a batch
// (docs/kernel-interface.md) into check-engine commands. Built once per
// parameter set (tests/rtl/CMakeLists.txt): 5 slots x 32-bit clocks (a row
// of two data words, the last one partly used), 4 sync objects, a 200-bit
// line (two words) and a read-VC pool; and 8 x 16 (one-word rows), 16
// objects, a 128-bit line, no pool. Words come with seeded WORD_VALID gaps,
// the engine side with seeded CMD_READY stalls.
//
// Reference model (decode() below): the commands, their sequence numbers,
// rows and lines, and the status and words_done the contract gives for the
// same words, including reserved ops, bad slots and objects, imports with
// shared bytes on a kernel without a pool, and batches cut inside data words.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "Vrac_cmd_decoder.h"
#include "axi_block_bench.hpp"
#include "rtl_harness.hpp"

namespace {

constexpr unsigned kSlots = DEC_SLOTS;
constexpr unsigned kClkW = DEC_CLK_W;
constexpr unsigned kObjects = DEC_OBJECTS;
constexpr unsigned kLineW = DEC_LINE_W;
constexpr unsigned kReadVcs = DEC_READ_VCS;
constexpr unsigned kGranW = 61;
constexpr unsigned kRowW = kSlots * kClkW;
constexpr unsigned kRowWords = (kRowW + 127) / 128;
constexpr unsigned kLineWords = (kLineW + 127) / 128;

struct Word {
  uint64_t lo = 0, hi = 0;  // bits 0-63 (op, flags, slot, mask), 64-127 (granule)
};
Word command(unsigned op, unsigned slot, unsigned mask, uint64_t granule, bool force = false) {
  return {op | (force ? 16u : 0u) | uint64_t{slot} << 8 | uint64_t{mask} << 16, granule};
}

// A bit string of `bits` bits as 32-bit words (the Verilated wide-port layout).
using Bits = std::vector<uint32_t>;
Bits take_bits(const std::vector<Word>& words, size_t first, unsigned nwords, unsigned bits) {
  Bits out((bits + 31) / 32, 0);
  for (unsigned b = 0; b < bits; ++b) {
    const Word& w = words[first + b / 128];
    const unsigned i = b % 128;
    const uint64_t half = i < 64 ? w.lo : w.hi;
    if (half >> (i % 64) & 1) out[b / 32] |= 1u << (b % 32);
  }
  (void)nwords;
  return out;
}

struct Cmd {
  unsigned op = 0;
  bool force = false, atomic = false;
  unsigned slot = 0, mask = 0;
  uint64_t granule = 0, seq = 0;
  Bits row, line;
  bool operator==(const Cmd&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Cmd& c) {
  return os << "{op " << c.op << " atomic " << c.atomic << " force " << c.force << " slot " << c.slot << " mask "
            << c.mask << " granule " << c.granule << " seq " << c.seq << "}";
}

struct Decoded {
  std::vector<Cmd> cmds;
  unsigned status = 0;
  uint32_t words_done = 0;
};

// What the contract makes of `words`.
Decoded decode(const std::vector<Word>& words) {
  Decoded d;
  const Bits zero_row((kRowW + 31) / 32, 0), zero_line((kLineW + 31) / 32, 0);
  size_t i = 0;
  while (i < words.size()) {
    const Word& w = words[i];
    const unsigned op = w.lo & 15, slot = (w.lo >> 8) & 255, mask = (w.lo >> 16) & 255;
    const bool atomic = op == 9 || op == 10, sync = op >= 4 && op <= 6;
    const bool bad =
        (op > 7 && !atomic) || slot >= kSlots || (sync && w.hi >= kObjects) || (op == 7 && kReadVcs == 0 && mask != 0);
    if (bad) {
      d.status = 1;
      d.words_done = static_cast<uint32_t>(i);
      return d;
    }
    Cmd c;
    c.slot = slot;
    c.granule = w.hi & ((uint64_t{1} << kGranW) - 1);
    c.seq = i;
    c.row = zero_row;
    c.line = zero_line;
    size_t data = 0;
    if (op == 3 || op == 6) {
      data = kRowWords;
    } else if (op == 7) {
      data = kLineWords + (mask != 0 ? kRowWords : 0);
    }
    if (i + 1 + data > words.size()) {
      d.status = 3;
      d.words_done = static_cast<uint32_t>(i);
      return d;
    }
    if (op == 3 || op == 6) {
      c.op = op;
      c.row = take_bits(words, i + 1, kRowWords, kRowW);
    } else if (op == 7) {
      c.op = 7;
      c.mask = mask;
      c.line = take_bits(words, i + 1, kLineWords, kLineW);
      if (mask != 0) c.row = take_bits(words, i + 1 + kLineWords, kRowWords, kRowW);
    } else {
      c.op = atomic ? (op == 10 ? 1 : 0) : op;
      c.atomic = atomic;
      c.force = (w.lo >> 4) & 1;
      c.mask = mask;
    }
    d.cmds.push_back(c);
    i += 1 + data;
  }
  d.words_done = static_cast<uint32_t>(words.size());
  return d;
}

struct DecoderBench {
  rac_rtl::Harness<Vrac_cmd_decoder> h;
  rac_rtl::Coin coin;
  std::vector<Cmd> got;
  unsigned zeroing = 0;

  explicit DecoderBench(uint64_t seed)
      : h(::testing::UnitTest::GetInstance()->current_test_info()->name()), coin(seed) {
    h->start_i = 0;
    h->zero_rows_i = 0;
    h->abort_i = 0;
    h->word_valid_i = 0;
    h->cmd_ready_i = 0;
    h.reset();
  }

  static Bits wide(const uint32_t* p, unsigned bits) { return Bits(p, p + (bits + 31) / 32); }
  // A Verilated port as a bit string: an integer up to 64 bits, else VlWide.
  template <class Port>
  static Bits port_bits(const Port& p, unsigned bits) {
    if constexpr (std::is_integral_v<Port>) {
      return wide(static_cast<uint64_t>(p), bits);
    } else {
      return wide(p.data(), bits);
    }
  }
  static Bits wide(uint64_t v, unsigned bits) {
    Bits out((bits + 31) / 32);
    for (size_t k = 0; k < out.size(); ++k) out[k] = static_cast<uint32_t>(v >> (32 * k));
    return out;
  }

  // Decodes `words` (after the zeroing commands are through); gaps and
  // stalls in percent; abort_at: raise abort_i once this many words were
  // taken (none: -1). False on a hang.
  bool run(const std::vector<Word>& words, unsigned gap, unsigned stall, long abort_at = -1) {
    for (unsigned i = 0; i < 10'000 && h->busy_o; ++i) cycle(stall);
    got.clear();
    h->start_i = 1;
    h->words_i = static_cast<uint32_t>(words.size());
    cycle(stall);
    size_t next = 0;
    for (unsigned i = 0; i < 200'000; ++i) {
      if (!h->word_valid_i && next < words.size() && !coin(gap)) {
        h->word_valid_i = 1;
        h->word_i.data()[0] = static_cast<uint32_t>(words[next].lo);
        h->word_i.data()[1] = static_cast<uint32_t>(words[next].lo >> 32);
        h->word_i.data()[2] = static_cast<uint32_t>(words[next].hi);
        h->word_i.data()[3] = static_cast<uint32_t>(words[next].hi >> 32);
      }
      if (abort_at >= 0 && next >= static_cast<size_t>(abort_at)) h->abort_i = 1;
      cycle(stall);
      if (word_taken) {
        h->word_valid_i = 0;
        ++next;
      }
      h.eval();
      if (h->done_o && !h->busy_o && !h->cmd_valid_o) {
        h->abort_i = 0;
        h->word_valid_i = 0;
        return true;
      }
    }
    return false;
  }

  // One cycle; CMD_READY is drawn first (WORD_READY depends on it), and
  // word_taken says whether the word offered was taken at this edge.
  bool word_taken = false;
  void cycle(unsigned stall) {
    h->cmd_ready_i = !coin(stall);
    h.eval();
    word_taken = h->word_valid_i && h->word_ready_o;
    if (h->cmd_valid_o && h->cmd_ready_i) {
      if (h->cmd_zeroing_o) {
        ++zeroing;
      } else {
        Cmd c;
        c.op = h->cmd_op_o;
        c.force = h->cmd_force_sw_o;
        c.atomic = h->cmd_atomic_o;
        c.slot = h->cmd_slot_o;
        c.mask = h->cmd_mask_o;
        c.granule = h->cmd_granule_o;
        c.seq = h->cmd_seq_o;
        c.row = port_bits(h->cmd_row_o, kRowW);
        c.line = port_bits(h->cmd_line_o, kLineW);
        // Only import-line carries a line, only set-row/load-object/import a row.
        if (c.op != 7) c.line.assign(c.line.size(), 0);
        if (c.op != 3 && c.op != 6 && c.op != 7) c.row.assign(c.row.size(), 0);
        got.push_back(c);
      }
    }
    h.tick();
    h->start_i = 0;
  }
};

uint64_t rnd_granule(rac_rtl::Coin& c) { return c.bits() >> 3; }

// A random well-formed batch: every op the contract has, with data words.
std::vector<Word> random_batch(rac_rtl::Coin& c, size_t commands) {
  std::vector<Word> out;
  for (size_t k = 0; k < commands; ++k) {
    const unsigned pick = static_cast<unsigned>(c.below(9));
    const unsigned slot = static_cast<unsigned>(c.below(kSlots));
    const unsigned mask = static_cast<unsigned>(c.below(256));
    switch (pick) {
      case 0:
      case 1:
      case 2:  // read, write, free
        out.push_back(command(pick, slot, mask, rnd_granule(c), c(20)));
        break;
      case 3:
      case 6: {  // set-row, load-object
        out.push_back(command(pick, slot, 0, pick == 6 ? c.below(kObjects) : rnd_granule(c)));
        for (unsigned d = 0; d < kRowWords; ++d) out.push_back({c.bits(), c.bits()});
        break;
      }
      case 4:
      case 5:  // acquire, release
        out.push_back(command(pick, slot, 0, c.below(kObjects)));
        break;
      case 7: {  // import-line, with shared bytes only where there is a pool
        const unsigned m = kReadVcs > 0 && c(50) ? mask | 1 : 0;
        out.push_back(command(7, slot, m, rnd_granule(c)));
        for (unsigned d = 0; d < kLineWords + (m != 0 ? kRowWords : 0); ++d) out.push_back({c.bits(), c.bits()});
        break;
      }
      default:  // atomic read / write
        out.push_back(command(c(50) ? 9 : 10, slot, mask, rnd_granule(c)));
    }
  }
  return out;
}

void expect_decoded(DecoderBench& b, const Decoded& want) {
  EXPECT_EQ(b.h->status_o, want.status);
  EXPECT_EQ(b.h->words_done_o, want.words_done);
  ASSERT_EQ(b.got.size(), want.cmds.size());
  for (size_t i = 0; i < want.cmds.size(); ++i) {
    EXPECT_EQ(b.got[i], want.cmds[i]) << "command " << i << ": " << b.got[i] << " want " << want.cmds[i];
  }
}

// The zeroing after reset, then random batches under three timing mixes:
// the commands match the reference decoding one for one.
TEST(CmdDecoder, RandomBatchesMatchTheReferenceDecoding) {
  const unsigned mixes[][2] = {{0, 0}, {30, 30}, {80, 70}};
  unsigned seed = 1;
  for (const auto& mix : mixes) {
    DecoderBench b(seed);
    rac_rtl::Coin c(100 + seed++);
    for (unsigned batch = 0; batch < 6; ++batch) {
      const std::vector<Word> words = random_batch(c, 1 + c.below(40));
      ASSERT_TRUE(b.run(words, mix[0], mix[1])) << "decoder hung";
      expect_decoded(b, decode(words));
    }
    EXPECT_EQ(b.zeroing, kSlots + kObjects) << "a zero set-row per slot and a zero load-object per object";
    EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
  }
}

// Bad words end the batch at that word (status 1), a batch cut inside a
// command's data words ends with status 3 and that command's index.
TEST(CmdDecoder, BadWordsAndTruncatedBatches) {
  DecoderBench b(7);
  rac_rtl::Coin c(7);
  std::vector<std::vector<Word>> cases;
  const std::vector<Word> good = random_batch(c, 5);
  std::vector<Word> bads = {command(8, 0, 0, 1),
                            command(11, 0, 0, 1),
                            command(15, 0, 0, 1),
                            command(1, kSlots, 0xFF, 1),
                            command(1, 255, 0xFF, 1),
                            command(4, 0, 0, kObjects),
                            command(6, 0, 0, uint64_t{1} << 63)};
  if (kReadVcs == 0) bads.push_back(command(7, 0, 1, 5));  // shared bytes without a pool
  for (const Word& bad : bads) {
    std::vector<Word> w = good;
    w.push_back(bad);
    for (unsigned d = 0; d < kLineWords; ++d) w.push_back({1, 2});  // an import's line (when not bad)
    w.push_back(command(1, 0, 1, 3));
    cases.push_back(w);
  }
  for (const unsigned op : {3u, 6u, 7u}) {
    for (unsigned keep = 0; keep < (op == 7 ? kLineWords : kRowWords); ++keep) {
      std::vector<Word> w = good;
      w.push_back(command(op, 0, 0, 0));
      for (unsigned d = 0; d < keep; ++d) w.push_back({c.bits(), c.bits()});
      cases.push_back(w);
    }
  }
  for (size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE("case " + std::to_string(k));
    ASSERT_TRUE(b.run(cases[k], 20, 20));
    const Decoded want = decode(cases[k]);
    expect_decoded(b, want);
    EXPECT_NE(want.status, 0u) << "the case should be bad or truncated";
  }
  EXPECT_EQ(b.h.errors(), 0);
}

// abort_i (a bus error elsewhere in the kernel): no word is taken after it,
// done_o rises with words_done = the words taken, and the commands handed
// over are a prefix of the batch's; the next batch decodes normally.
TEST(CmdDecoder, AbortEndsTheBatchAtAWordBoundary) {
  for (const long at : {0L, 1L, 13L, 40L}) {
    SCOPED_TRACE("abort after " + std::to_string(at) + " words");
    DecoderBench b(static_cast<uint64_t>(at) + 3);
    rac_rtl::Coin c(static_cast<uint64_t>(at));
    const std::vector<Word> words = random_batch(c, 60);
    ASSERT_TRUE(b.run(words, 25, 25, at)) << "decoder hung on abort";
    EXPECT_EQ(b.h->words_done_o, static_cast<uint32_t>(at)) << "no word taken after the abort";
    const Decoded all = decode(words);
    ASSERT_LE(b.got.size(), all.cmds.size());
    for (size_t i = 0; i < b.got.size(); ++i) {
      EXPECT_EQ(b.got[i], all.cmds[i]);
      EXPECT_LT(b.got[i].seq, b.h->words_done_o) << "a command for a word not consumed";
    }
    const std::vector<Word> next = random_batch(c, 10);
    ASSERT_TRUE(b.run(next, 25, 25));
    expect_decoded(b, decode(next));
    EXPECT_EQ(b.h.errors(), 0);
  }
}

}  // namespace
