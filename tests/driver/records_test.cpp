// The contract's byte formats (driver/records.hpp) against
// docs/kernel-interface.md: field positions and round trips.
#include <gtest/gtest.h>

#include <random>

#include "driver/rac_kernel_regs.hpp"
#include "driver/records.hpp"

namespace raceaccel::driver {
namespace {

TEST(Records, LineRoundTripsInEveryShape) {
  std::mt19937_64 rng(3);
  for (const LineShape shape :
       {LineShape{64, 32}, LineShape{256, 32}, LineShape{8, 16}, LineShape{4, 5}, LineShape{1, 1}}) {
    ASSERT_LE(shape.line_bits(), kLineBytes * 8);
    for (int i = 0; i < 50; ++i) {
      Line line;
      line.in_software = rng() & 1u;
      for (ByteState& b : line.bytes) {
        b.raced = rng() & 1u;
        b.w_slot = static_cast<uint32_t>(rng() % shape.slots);
        b.r_slot = static_cast<uint32_t>(rng() % shape.slots);
        b.w_clock = static_cast<uint32_t>(rng() & shape.max_clock());
        b.r_clock = static_cast<uint32_t>(rng() & shape.max_clock());
      }
      std::array<std::byte, kLineBytes> bytes{};
      encode_line(line, shape, bytes);
      EXPECT_EQ(decode_line(bytes, shape), line);
      for (size_t bit = shape.line_bits(); bit < kLineBytes * 8; ++bit) {
        ASSERT_EQ(get_bits(bytes, bit, 1), 0u) << "bit " << bit << " lies beyond the line";
      }
    }
  }
}

TEST(Records, LineFieldsSitWhereTheHardwareDocSaysTheyDo) {
  const LineShape shape{64, 32};
  EXPECT_EQ(shape.byte_bits(), 77u);   // docs/hardware.md: 77-bit byte states
  EXPECT_EQ(shape.line_bits(), 617u);  // and 617-bit lines
  EXPECT_EQ(shape.row_words(), 16u);   // 64 lanes × 32 bits of set-row data
  Line line;
  line.in_software = true;
  line.bytes[1].w_clock = 0xABCD;  // byte 1 starts at bit 1 + 77; W clock after raced and W slot (6 bits)
  std::array<std::byte, kLineBytes> bytes{};
  encode_line(line, shape, bytes);
  EXPECT_EQ(get_bits(bytes, 0, 1), 1u);
  EXPECT_EQ(get_bits(bytes, 1 + 77 + 1 + 6, 32), 0xABCDu);
}

// The generated layout functions (rtl/regmap JSON "line", shared with the
// RTL through rac_line_layout_pkg) give the documented offsets.
TEST(Records, GeneratedLineLayoutMatchesTheContract) {
  constexpr uint32_t sb = 6, cb = 32;  // 64 slots, 32-bit clocks
  static_assert(regs::line_in_software_lo(sb, cb, 0) == 0);
  static_assert(regs::line_byte_lo(sb, cb, 0) == 1);
  static_assert(regs::line_byte_bits(sb, cb, 0) == 77);
  static_assert(regs::line_byte_count == 8);
  static_assert(regs::line_byte_raced_lo(sb, cb, 0) == 0);
  static_assert(regs::line_byte_w_slot_lo(sb, cb, 0) == 1);
  static_assert(regs::line_byte_w_clock_lo(sb, cb, 0) == 7);
  static_assert(regs::line_byte_r_slot_lo(sb, cb, 0) == 39);
  static_assert(regs::line_byte_r_clock_lo(sb, cb, 0) == 45);
  static_assert(regs::line_shared_lo(sb, cb, 16) == 1 + 8 * 77);
  static_assert(regs::line_shared_bits(sb, cb, 0) == 0 && regs::line_shared_bits(sb, cb, 16) == 8);
  static_assert(regs::line_bits(sb, cb, 0) == 617 && regs::line_bits(sb, cb, 16) == 625);
  EXPECT_EQ((LineShape{64, 32, 16}.line_bits()), 625u);
}

TEST(Records, CommandWordLayout) {
  CommandWord c;
  c.op = regs::kOpWrite;
  c.force_sw = true;
  c.slot = 0xAB;
  c.mask = 0x3C;
  c.granule = 0x123456789ABCull;
  std::array<std::byte, 16> w{};
  encode_command(c, w);
  EXPECT_EQ(static_cast<unsigned>(w[0]), 0x11u);  // op 1, force_sw bit 4
  EXPECT_EQ(static_cast<unsigned>(w[1]), 0xABu);  // slot, bits 8–15
  EXPECT_EQ(static_cast<unsigned>(w[2]), 0x3Cu);  // mask, bits 16–23
  EXPECT_EQ(static_cast<unsigned>(w[8]), 0xBCu);  // granule from bit 64, little-endian
  const CommandWord d = decode_command(w);
  EXPECT_EQ(d.op, c.op);
  EXPECT_EQ(d.force_sw, c.force_sw);
  EXPECT_EQ(d.slot, c.slot);
  EXPECT_EQ(d.mask, c.mask);
  EXPECT_EQ(d.granule, c.granule);
  EXPECT_EQ(d.reserved, 0u);
  w[3] = std::byte{1};  // bits 24–63 must be zero
  EXPECT_NE(decode_command(w).reserved, 0u);
}

TEST(Records, RowIsOneLittleEndianBitString) {
  const LineShape shape{5, 7};  // lanes straddle byte boundaries
  const std::vector<uint64_t> lanes = {1, 127, 64, 0, 99};
  std::vector<std::byte> data(shape.row_words() * 16);
  encode_row(lanes, shape, data);
  EXPECT_EQ(get_bits(data, 7, 7), 127u);
  EXPECT_EQ(get_bits(data, 28, 7), 99u);
  EXPECT_EQ(decode_row(data, shape), lanes);
}

TEST(Records, RaceRecordLayoutAndRoundTrip) {
  RaceRecord r;
  r.word = 77;
  r.granule = 0xFEED;
  r.mask = 0x81;
  r.kind[0] = 2;
  r.kind[7] = 1;
  r.prev_slot[0] = 200;
  r.prev_clock[7] = 0xFFFFFFFF;
  std::array<std::byte, 64> bytes{};
  encode_race(r, bytes);
  EXPECT_EQ(static_cast<unsigned>(bytes[0]), 77u);
  EXPECT_EQ(static_cast<unsigned>(bytes[8]), 0xEDu);
  EXPECT_EQ(static_cast<unsigned>(bytes[16]), 0x81u);
  EXPECT_EQ(static_cast<unsigned>(bytes[17]), 0x02u);  // lane 0's kind in bits 0–1
  EXPECT_EQ(static_cast<unsigned>(bytes[18]), 0x40u);  // lane 7's kind in bits 14–15
  EXPECT_EQ(static_cast<unsigned>(bytes[20]), 200u);   // lane 0's earlier slot
  EXPECT_EQ(static_cast<unsigned>(bytes[28 + 4 * 7 + 3]), 0xFFu);
  EXPECT_EQ(decode_race(bytes), r);
}

TEST(Records, EscalationRecordLayoutAndRoundTrip) {
  EscalationRecord e;
  e.word = 5;
  e.granule = 9;
  e.reason = regs::kReasonSpill;
  e.line[0] = std::byte{1};
  e.line[103] = std::byte{0x80};
  std::array<std::byte, 128> bytes{};
  encode_escalation(e, bytes);
  EXPECT_EQ(static_cast<unsigned>(bytes[16]), regs::kReasonSpill);
  EXPECT_EQ(static_cast<unsigned>(bytes[24]), 1u);  // the line from byte 24
  EXPECT_EQ(static_cast<unsigned>(bytes[127]), 0x80u);
  const EscalationRecord d = decode_escalation(bytes);
  EXPECT_EQ(d.word, 5u);
  EXPECT_EQ(d.granule, 9u);
  EXPECT_EQ(d.reason, regs::kReasonSpill);
  EXPECT_EQ(d.line, e.line);
}

// With a read-VC pool: the line ends with the shared mask, and the record
// carries a flag at byte 17 and the read clock from byte 128 in whole beats.
TEST(Records, PoolShapeLineAndReadClock) {
  const LineShape shape{.slots = 8, .clock_bits = 32, .read_vcs = 2};
  EXPECT_EQ(shape.line_bits(), 1u + 8 * 71 + 8);
  EXPECT_EQ(shape.esc_record_bytes(), 192u);
  EXPECT_EQ((LineShape{.slots = 64, .clock_bits = 32, .read_vcs = 16}.esc_record_bytes()), 128u + 256u);
  EXPECT_EQ((LineShape{.slots = 64, .clock_bits = 32}.esc_record_bytes()), 128u);
  Line line;
  line.bytes[7].r_clock = 0xABCD;
  line.shared = 0xA5;
  EscalationRecord e;
  e.reason = regs::kReasonReadVcSpill;
  encode_line(line, shape, e.line);
  EXPECT_EQ(get_bits(e.line, 1 + 8 * 71, 8), 0xA5u);  // the mask right after the 8 byte states
  EXPECT_EQ(decode_line(e.line, shape), line);
  e.read_clock_valid = true;
  e.read_clock.resize(64);
  const std::vector<uint64_t> lanes = {1, 0, 0, 0, 0, 0, 0, 0xFFFFFFFF};
  encode_row(lanes, shape, e.read_clock);
  std::vector<std::byte> bytes(shape.esc_record_bytes());
  encode_escalation(e, bytes);
  EXPECT_EQ(static_cast<unsigned>(bytes[17]), 1u);
  EXPECT_EQ(static_cast<unsigned>(bytes[128]), 1u);          // lane 0
  EXPECT_EQ(static_cast<unsigned>(bytes[128 + 28]), 0xFFu);  // lane 7
  const EscalationRecord d = decode_escalation(bytes);
  EXPECT_TRUE(d.read_clock_valid);
  EXPECT_EQ(decode_row(d.read_clock, shape), lanes);
  EXPECT_TRUE(decode_escalation(std::span<const std::byte>(bytes).first(128)).read_clock.empty());
  bytes[17] = std::byte{0};
  EXPECT_TRUE(decode_escalation(bytes).read_clock.empty()) << "no clock without the flag";
}

// Version 6: byte 18 names the shared bytes the record's clock covers (0:
// all of them), and the records one command word may need grow with the
// pool's ways (2W + 1; 3 with one way, as in version 5).
TEST(Records, ClockMaskAndRecordsPerWord) {
  const LineShape shape{.slots = 8, .clock_bits = 32, .read_vcs = 8, .read_vc_ways = 4};
  EscalationRecord e;
  e.reason = regs::kReasonReadVcSpill;
  e.read_clock_valid = true;
  e.clock_mask = 0x30;
  e.read_clock.resize(64);
  std::vector<std::byte> bytes(shape.esc_record_bytes());
  encode_escalation(e, bytes);
  EXPECT_EQ(static_cast<unsigned>(bytes[regs::kEscClockMaskByte]), 0x30u);
  EXPECT_EQ(regs::kEscClockMaskByte, 18u);
  EXPECT_EQ(decode_escalation(bytes).clock_mask, 0x30u);
  EXPECT_EQ(shape.esc_records_per_word(), 9u);
  EXPECT_EQ((LineShape{.slots = 8, .clock_bits = 32, .read_vcs = 8}.esc_records_per_word()), 3u);
  EXPECT_EQ((LineShape{.slots = 8, .clock_bits = 32}.esc_records_per_word()), 2u);
}

// The bucket hash of the contract, pinned to values computed independently
// from its definition in docs/kernel-interface.md (a Python transcription):
// a change of the JSON's rounds, rotations or key breaks these.
TEST(Records, BucketHashIsTheContractsAddRotateXor) {
  EXPECT_EQ(regs::bucket_hash(0), 0x9e00520753d3e89eu);
  EXPECT_EQ(regs::bucket_hash(1), 0x61035358dcd8fb69u);
  EXPECT_EQ(regs::bucket_hash(0x4000000), 0xb9f47e0a56a7e4aau);
  EXPECT_EQ(regs::bucket_hash((uint64_t{1} << 61) - 1), 0x38f7fedf7b41097au);
  EXPECT_EQ(bucket_of(1, 10), 0x369u);
  EXPECT_EQ(bucket_of(1, 30), 0x1cd8fb69u);
  EXPECT_EQ(bucket_filter_bit(1), 0x18u);
}

// What the XOR fold got wrong: g and g ^ (x << B) ^ x always shared a
// bucket, so pages of one region collided. The hash spreads structured
// granule sets like random ones: 4,096 granules of four regions (dense and
// stride 8) in 4,096 buckets leave few beyond 4 ways (Poisson: about 15).
TEST(Records, BucketHashSpreadsStructuredGranules) {
  unsigned fold_pairs_apart = 0;
  for (uint64_t g = 0; g < 1024; ++g) {
    fold_pairs_apart += bucket_of(0x4000000 + g, 10) != bucket_of((0x4000000 + g) ^ (uint64_t{5} << 10) ^ 5, 10);
  }
  EXPECT_GT(fold_pairs_apart, 1000u);
  std::vector<unsigned> load(4096);
  for (uint64_t base : {0x4000000u, 0xA000000u, 0xC000000u, 0xA060000u}) {
    for (uint64_t i = 0; i < 512; ++i) {
      ++load[bucket_of(base + i, 12)];
      ++load[bucket_of(base + 0x10000 + 8 * i, 12)];
    }
  }
  unsigned beyond_four = 0;
  for (unsigned l : load) beyond_four += l > 4 ? l - 4 : 0;
  EXPECT_LT(beyond_four, 40u);
}

}  // namespace
}  // namespace raceaccel::driver
