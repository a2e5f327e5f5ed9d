// The byte formats of docs/kernel-interface.md in one place: command words,
// set-row data, race records, escalation records and the line. The software
// model and the offload engine both use these, so the two ends of the
// contract cannot drift apart silently (the Verilator and XRT backends check
// the RTL against the same functions through the differential tests).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::driver {

// The parameters that fix the line layout and the set-row length. The
// layout itself (field order, offsets, widths) is generated from the
// register-map JSON (regs::line_*), as is the RTL's.
struct LineShape {
  unsigned slots = 64;
  unsigned clock_bits = 32;
  unsigned read_vcs = 0;       // entries of the read-VC pool (0: none; lines then have no shared mask)
  unsigned read_vc_ways = 1;   // pool ways: read clocks one line may hold (cap_read_vc_ways; 1: version-5 rules)
  unsigned slot_bits() const;  // ⌈log2 slots⌉, at least 1
  unsigned byte_bits() const { return regs::line_byte_bits(slot_bits(), clock_bits, read_vcs); }
  unsigned line_bits() const { return regs::line_bits(slot_bits(), clock_bits, read_vcs); }
  // Escalation records: 128 bytes, with a pool followed by the read clock
  // in whole 64-byte beats (cap_esc_record_bytes).
  unsigned esc_record_bytes() const { return read_vcs > 0 ? 128 + 64 * ((slots * clock_bits + 511) / 512) : 128; }
  // Escalation records one command word may produce (esc_capacity ≥ this ×
  // command_words): without a pool its own and its victim's bucket spill;
  // with one also a read-clock spill per clock of the victim (up to
  // read_vc_ways) and, for its own line, a read-clock spill per clock beyond
  // the one its record carries (docs/kernel-interface.md).
  unsigned esc_records_per_word() const { return read_vcs > 0 ? 2 * read_vc_ways + 1 : 2; }
  unsigned row_words() const { return (slots * clock_bits + 127) / 128; }  // data words after a set-row
  unsigned line_words() const { return (line_bits() + 127) / 128; }        // data words after an import-line
  uint64_t max_clock() const { return clock_bits >= 64 ? UINT64_MAX : (uint64_t{1} << clock_bits) - 1; }
};

// One byte lane of a line: raced flag, last-write and last-read epochs.
struct ByteState {
  bool raced = false;
  uint32_t w_slot = 0, w_clock = 0;
  uint32_t r_slot = 0, r_clock = 0;
  bool operator==(const ByteState&) const = default;
};

struct Line {
  bool in_software = false;
  std::array<ByteState, 8> bytes{};
  unsigned shared = 0;  // bytes whose reads are the line's read clock (only with a pool)
  bool operator==(const Line&) const = default;
};

inline constexpr size_t kLineBytes = 104;  // bytes 24–127 of an escalation record or bucket
void encode_line(const Line& line, const LineShape& shape, std::span<std::byte, kLineBytes> out);
Line decode_line(std::span<const std::byte, kLineBytes> in, const LineShape& shape);
// Import-line data: the line as one little-endian bit string over
// line_words() words (`out`/`in` are those words' bytes).
void encode_line_words(const Line& line, const LineShape& shape, std::span<std::byte> out);
Line decode_line_words(std::span<const std::byte> in, const LineShape& shape);

struct CommandWord {
  unsigned op = 0;  // regs::kOp*
  bool force_sw = false;
  unsigned slot = 0;
  unsigned mask = 0;
  uint64_t granule = 0;
  unsigned reserved = 0;  // bits 5–7 and 24–63 as read (must be zero)
};
void encode_command(const CommandWord& c, std::span<std::byte, 16> out);
CommandWord decode_command(std::span<const std::byte, 16> in);
// Set-row data: lanes of clock_bits bits as one little-endian bit string
// over row_words() words.
void encode_row(std::span<const uint64_t> lanes, const LineShape& shape, std::span<std::byte> out);
std::vector<uint64_t> decode_row(std::span<const std::byte> in, const LineShape& shape);

struct RaceRecord {
  uint64_t word = 0;  // word index of the command in its batch
  uint64_t granule = 0;
  unsigned mask = 0;               // raced bytes
  std::array<unsigned, 8> kind{};  // per lane: 0 write-write, 1 write-read, 2 read-write
  std::array<uint32_t, 8> prev_slot{};
  std::array<uint32_t, 8> prev_clock{};
  bool operator==(const RaceRecord&) const = default;
};
void encode_race(const RaceRecord& r, std::span<std::byte, 64> out);
RaceRecord decode_race(std::span<const std::byte, 64> in);

struct EscalationRecord {
  uint64_t word = 0;
  uint64_t granule = 0;
  unsigned reason = 0;  // regs::kReason*
  std::array<std::byte, kLineBytes> line{};
  bool read_clock_valid = false;      // byte 17 bit 0: the shared bytes' read clock comes with it
  uint8_t clock_mask = 0;             // byte 18: the shared bytes that clock covers (0: all of them)
  std::vector<std::byte> read_clock;  // bytes 128.. (set-row layout; decode_row); decoded only when valid
};
// `out` / `in` is one whole record (cap_esc_record_bytes: 128, or more with
// a read clock at byte 128).
void encode_escalation(const EscalationRecord& r, std::span<std::byte> out);
EscalationRecord decode_escalation(std::span<const std::byte> in);

// Bucket index of a granule (the low bucket_bits bits of the contract's
// bucket hash, regs::bucket_hash; bucket_bits 1..30) and its bit in the
// bucket's spill filter (docs/kernel-interface.md, "Metadata bucket table").
uint64_t bucket_of(uint64_t granule, unsigned bucket_bits);
unsigned bucket_filter_bit(uint64_t granule);

// Little-endian bit strings over bytes (up to 64 bits per field).
uint64_t get_bits(std::span<const std::byte> bytes, size_t pos, unsigned width);
void set_bits(std::span<std::byte> bytes, size_t pos, unsigned width, uint64_t value);

}  // namespace raceaccel::driver
