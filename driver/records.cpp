#include "driver/records.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace raceaccel::driver {
namespace {

// The formats are little-endian: on a little-endian host a field is a
// plain copy (the byte loops cost the host a few ns per command word).
constexpr bool kLittleEndian = std::endian::native == std::endian::little;

uint64_t load64(std::span<const std::byte> in, size_t at) {
  uint64_t v = 0;
  if constexpr (kLittleEndian) {
    std::memcpy(&v, in.subspan(at, 8).data(), 8);
    return v;
  }
  for (size_t i = 0; i < 8; ++i) v |= static_cast<uint64_t>(in[at + i]) << (8 * i);
  return v;
}

void store64(std::span<std::byte> out, size_t at, uint64_t v) {
  if constexpr (kLittleEndian) {
    std::memcpy(out.subspan(at, 8).data(), &v, 8);
    return;
  }
  for (size_t i = 0; i < 8; ++i) out[at + i] = static_cast<std::byte>(v >> (8 * i));
}

}  // namespace

unsigned LineShape::slot_bits() const { return slots > 1 ? static_cast<unsigned>(std::bit_width(slots - 1)) : 1; }

uint64_t get_bits(std::span<const std::byte> bytes, size_t pos, unsigned width) {
  // Byte-wise over the at most 9 bytes the field touches (fields are ≤ 64 bits).
  const size_t first = pos / 8;
  const unsigned shift = pos % 8;
  const size_t count = (shift + width + 7) / 8;
  unsigned __int128 acc = 0;
  for (size_t i = 0; i < count; ++i) acc |= static_cast<unsigned __int128>(bytes[first + i]) << (8 * i);
  const uint64_t mask = width >= 64 ? UINT64_MAX : (uint64_t{1} << width) - 1;
  return static_cast<uint64_t>(acc >> shift) & mask;
}

void set_bits(std::span<std::byte> bytes, size_t pos, unsigned width, uint64_t value) {
  const size_t first = pos / 8;
  const unsigned shift = pos % 8;
  const size_t count = (shift + width + 7) / 8;
  const uint64_t mask = width >= 64 ? UINT64_MAX : (uint64_t{1} << width) - 1;
  unsigned __int128 acc = 0;
  for (size_t i = 0; i < count; ++i) acc |= static_cast<unsigned __int128>(bytes[first + i]) << (8 * i);
  acc &= ~(static_cast<unsigned __int128>(mask) << shift);
  acc |= static_cast<unsigned __int128>(value & mask) << shift;
  for (size_t i = 0; i < count; ++i) bytes[first + i] = static_cast<std::byte>(acc >> (8 * i));
}

namespace {

// Little-endian bit strings written and read field after field in
// increasing bit position (the line layout's order), so no field needs a
// read-modify-write. A field may start past the previous one's end: the
// gap is zeros (writer) or skipped (reader).
class BitWriter {
 public:
  explicit BitWriter(std::span<std::byte> out) : out_(out) {}
  void put(size_t pos, uint64_t value, unsigned width) {
    if (pos < at_) throw std::logic_error("line layout fields out of order");
    while (at_ < pos) put_bits(0, static_cast<unsigned>(std::min<size_t>(pos - at_, 64)));
    put_bits(value, width);
  }
  void flush() {
    if (held_ > 0) out_[pos_++] = static_cast<std::byte>(acc_);
    held_ = 0;
  }

 private:
  void put_bits(uint64_t value, unsigned width) {
    const uint64_t mask = width >= 64 ? UINT64_MAX : (uint64_t{1} << width) - 1;
    acc_ |= static_cast<unsigned __int128>(value & mask) << held_;
    held_ += width;
    at_ += width;
    while (held_ >= 8) {
      out_[pos_++] = static_cast<std::byte>(acc_);
      acc_ >>= 8;
      held_ -= 8;
    }
  }
  std::span<std::byte> out_;
  size_t pos_ = 0, at_ = 0;
  unsigned __int128 acc_ = 0;
  unsigned held_ = 0;
};

// Every escalation record's line is decoded (the host answers it), so a
// field is one unaligned 64-bit load where it fits in one (a field of up to
// 57 bits with 8 bytes behind its first byte), byte-wise otherwise.
class BitReader {
 public:
  explicit BitReader(std::span<const std::byte> in) : in_(in) {}
  uint64_t get(size_t pos, unsigned width) {
    if (pos < at_) throw std::logic_error("line layout fields out of order");
    at_ = pos + width;
    const size_t first = pos / 8;
    const unsigned shift = pos % 8;
    if (kLittleEndian && shift + width <= 64 && first + 8 <= in_.size()) {
      uint64_t v = 0;
      std::memcpy(&v, in_.data() + first, 8);
      const uint64_t mask = width >= 64 ? UINT64_MAX : (uint64_t{1} << width) - 1;
      return (v >> shift) & mask;
    }
    return get_bits(in_, pos, width);
  }

 private:
  std::span<const std::byte> in_;
  size_t at_ = 0;
};

}  // namespace

// Field by field at the offsets the register-map JSON gives (regs::line_*),
// in increasing position.
void encode_line(const Line& line, const LineShape& shape, std::span<std::byte, kLineBytes> out) {
  std::memset(out.data(), 0, out.size());
  const unsigned sb = shape.slot_bits(), cb = shape.clock_bits, rv = shape.read_vcs;
  BitWriter w(out);
  w.put(regs::line_in_software_lo(sb, cb, rv), line.in_software, regs::line_in_software_bits(sb, cb, rv));
  const size_t byte_lo = regs::line_byte_lo(sb, cb, rv), byte_bits = regs::line_byte_bits(sb, cb, rv);
  for (unsigned b = 0; b < regs::line_byte_count; ++b) {
    const ByteState& s = line.bytes[b];
    const size_t lo = byte_lo + b * byte_bits;
    w.put(lo + regs::line_byte_raced_lo(sb, cb, rv), s.raced, regs::line_byte_raced_bits(sb, cb, rv));
    w.put(lo + regs::line_byte_w_slot_lo(sb, cb, rv), s.w_slot, regs::line_byte_w_slot_bits(sb, cb, rv));
    w.put(lo + regs::line_byte_w_clock_lo(sb, cb, rv), s.w_clock, regs::line_byte_w_clock_bits(sb, cb, rv));
    w.put(lo + regs::line_byte_r_slot_lo(sb, cb, rv), s.r_slot, regs::line_byte_r_slot_bits(sb, cb, rv));
    w.put(lo + regs::line_byte_r_clock_lo(sb, cb, rv), s.r_clock, regs::line_byte_r_clock_bits(sb, cb, rv));
  }
  if (regs::line_shared_bits(sb, cb, rv) > 0) {
    w.put(regs::line_shared_lo(sb, cb, rv), line.shared, regs::line_shared_bits(sb, cb, rv));
  }
  w.flush();
}

Line decode_line(std::span<const std::byte, kLineBytes> in, const LineShape& shape) {
  const unsigned sb = shape.slot_bits(), cb = shape.clock_bits, rv = shape.read_vcs;
  BitReader r(in);
  Line line;
  line.in_software = r.get(regs::line_in_software_lo(sb, cb, rv), regs::line_in_software_bits(sb, cb, rv)) != 0;
  const size_t byte_lo = regs::line_byte_lo(sb, cb, rv), byte_bits = regs::line_byte_bits(sb, cb, rv);
  for (unsigned b = 0; b < regs::line_byte_count; ++b) {
    ByteState& s = line.bytes[b];
    const size_t lo = byte_lo + b * byte_bits;
    s.raced = r.get(lo + regs::line_byte_raced_lo(sb, cb, rv), regs::line_byte_raced_bits(sb, cb, rv)) != 0;
    s.w_slot = static_cast<uint32_t>(
        r.get(lo + regs::line_byte_w_slot_lo(sb, cb, rv), regs::line_byte_w_slot_bits(sb, cb, rv)));
    s.w_clock = static_cast<uint32_t>(
        r.get(lo + regs::line_byte_w_clock_lo(sb, cb, rv), regs::line_byte_w_clock_bits(sb, cb, rv)));
    s.r_slot = static_cast<uint32_t>(
        r.get(lo + regs::line_byte_r_slot_lo(sb, cb, rv), regs::line_byte_r_slot_bits(sb, cb, rv)));
    s.r_clock = static_cast<uint32_t>(
        r.get(lo + regs::line_byte_r_clock_lo(sb, cb, rv), regs::line_byte_r_clock_bits(sb, cb, rv)));
  }
  if (regs::line_shared_bits(sb, cb, rv) > 0) {
    line.shared = static_cast<unsigned>(r.get(regs::line_shared_lo(sb, cb, rv), regs::line_shared_bits(sb, cb, rv)));
  }
  return line;
}

// The line never exceeds kLineBytes (LineW ≤ 832), and bits past LineW are
// zero, so the words are the record's line field cut or padded to whole words.
void encode_line_words(const Line& line, const LineShape& shape, std::span<std::byte> out) {
  if (out.size() < size_t{shape.line_words()} * regs::kCommandBytes) {
    throw std::invalid_argument("encode_line_words: fewer bytes than the line's data words");
  }
  std::array<std::byte, kLineBytes> bytes{};
  encode_line(line, shape, bytes);
  std::memset(out.data(), 0, out.size());
  std::memcpy(out.data(), bytes.data(), std::min(out.size(), bytes.size()));
}

Line decode_line_words(std::span<const std::byte> in, const LineShape& shape) {
  if (in.size() < size_t{shape.line_words()} * regs::kCommandBytes) {
    throw std::invalid_argument("decode_line_words: fewer bytes than the line's data words");
  }
  std::array<std::byte, kLineBytes> bytes{};
  std::memcpy(bytes.data(), in.data(), std::min(in.size(), bytes.size()));
  return decode_line(bytes, shape);
}

void encode_command(const CommandWord& c, std::span<std::byte, 16> out) {
  const uint64_t low = (uint64_t{c.op} & 0xF) | (uint64_t{c.force_sw} << 4) | ((uint64_t{c.slot} & 0xFF) << 8) |
                       ((uint64_t{c.mask} & 0xFF) << 16);
  store64(out, 0, low);
  store64(out, 8, c.granule);
}

CommandWord decode_command(std::span<const std::byte, 16> in) {
  const uint64_t low = load64(in, 0);
  CommandWord c;
  c.op = low & 0xF;
  c.force_sw = (low >> 4) & 1u;
  c.slot = (low >> 8) & 0xFF;
  c.mask = (low >> 16) & 0xFF;
  c.reserved = ((low & 0xE0) != 0 || (low >> 24) != 0) ? 1 : 0;
  c.granule = load64(in, 8);
  return c;
}

void encode_row(std::span<const uint64_t> lanes, const LineShape& shape, std::span<std::byte> out) {
  std::memset(out.data(), 0, out.size());
  const size_t n = std::min<size_t>(lanes.size(), shape.slots);
  if (shape.clock_bits == 32) {  // the common shape: whole little-endian words
    if (out.size() < 4 * n) throw std::invalid_argument("encode_row: fewer bytes than the lanes");
    for (size_t lane = 0; lane < n; ++lane) {
      if constexpr (kLittleEndian) {
        const auto v = static_cast<uint32_t>(lanes[lane]);
        std::memcpy(out.data() + 4 * lane, &v, 4);
      } else {
        for (unsigned i = 0; i < 4; ++i) out[4 * lane + i] = static_cast<std::byte>(lanes[lane] >> (8 * i));
      }
    }
    return;
  }
  for (size_t lane = 0; lane < n; ++lane) set_bits(out, lane * shape.clock_bits, shape.clock_bits, lanes[lane]);
}

std::vector<uint64_t> decode_row(std::span<const std::byte> in, const LineShape& shape) {
  std::vector<uint64_t> lanes(shape.slots);
  if (shape.clock_bits == 32) {
    for (size_t lane = 0; lane < shape.slots; ++lane) {
      uint64_t v = 0;
      for (unsigned i = 0; i < 4; ++i) v |= static_cast<uint64_t>(in[4 * lane + i]) << (8 * i);
      lanes[lane] = v;
    }
    return lanes;
  }
  for (size_t lane = 0; lane < shape.slots; ++lane)
    lanes[lane] = get_bits(in, lane * shape.clock_bits, shape.clock_bits);
  return lanes;
}

void encode_race(const RaceRecord& r, std::span<std::byte, 64> out) {
  std::memset(out.data(), 0, out.size());
  store64(out, 0, r.word);
  store64(out, 8, r.granule);
  out[16] = static_cast<std::byte>(r.mask);
  unsigned kinds = 0;
  for (unsigned b = 0; b < 8; ++b) kinds |= (r.kind[b] & 3u) << (2 * b);
  out[17] = static_cast<std::byte>(kinds);
  out[18] = static_cast<std::byte>(kinds >> 8);
  for (unsigned b = 0; b < 8; ++b) {
    out[20 + b] = static_cast<std::byte>(r.prev_slot[b]);
    for (unsigned i = 0; i < 4; ++i) out[28 + 4 * b + i] = static_cast<std::byte>(r.prev_clock[b] >> (8 * i));
  }
}

RaceRecord decode_race(std::span<const std::byte, 64> in) {
  RaceRecord r;
  r.word = load64(in, 0);
  r.granule = load64(in, 8);
  r.mask = static_cast<unsigned>(in[16]);
  const unsigned kinds = static_cast<unsigned>(in[17]) | static_cast<unsigned>(in[18]) << 8;
  for (unsigned b = 0; b < 8; ++b) {
    r.kind[b] = (kinds >> (2 * b)) & 3u;
    r.prev_slot[b] = static_cast<uint32_t>(in[20 + b]);
    uint32_t clock = 0;
    for (unsigned i = 0; i < 4; ++i) clock |= static_cast<uint32_t>(in[28 + 4 * b + i]) << (8 * i);
    r.prev_clock[b] = clock;
  }
  return r;
}

void encode_escalation(const EscalationRecord& r, std::span<std::byte> out) {
  std::memset(out.data(), 0, out.size());
  store64(out, 0, r.word);
  store64(out, 8, r.granule);
  out[16] = static_cast<std::byte>(r.reason);
  out[17] = static_cast<std::byte>(r.read_clock_valid ? 1 : 0);
  out[regs::kEscClockMaskByte] = static_cast<std::byte>(r.clock_mask);
  std::memcpy(out.data() + 24, r.line.data(), kLineBytes);
  const size_t clock_bytes = std::min(r.read_clock.size(), out.size() > 128 ? out.size() - 128 : 0);
  if (clock_bytes > 0) std::memcpy(out.data() + 128, r.read_clock.data(), clock_bytes);
}

EscalationRecord decode_escalation(std::span<const std::byte> in) {
  EscalationRecord r;
  r.word = load64(in, 0);
  r.granule = load64(in, 8);
  r.reason = static_cast<unsigned>(in[16]);
  r.read_clock_valid = (static_cast<unsigned>(in[17]) & 1u) != 0;
  r.clock_mask = static_cast<uint8_t>(in[regs::kEscClockMaskByte]);
  std::memcpy(r.line.data(), in.data() + 24, kLineBytes);
  // Most records carry no clock: copy it only when it is there.
  if (r.read_clock_valid && in.size() > 128) r.read_clock.assign(in.begin() + 128, in.end());
  return r;
}

uint64_t bucket_of(uint64_t granule, unsigned bucket_bits) {
  return regs::bucket_hash(granule) & ((uint64_t{1} << bucket_bits) - 1);
}

unsigned bucket_filter_bit(uint64_t granule) {
  return static_cast<unsigned>(regs::bucket_hash(granule) >> 32) % regs::kBucketFilterBits;
}

}  // namespace raceaccel::driver
