#include <fmt/format.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <new>

#include "trace/binary_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

// Zero bytes kept after every decoded payload. Records are decoded without a
// bounds check per field: no record can read further than this past the end
// of the payload, and one that does is reported as truncated afterwards.
constexpr size_t kDecodePadding = 64;
static_assert(kDecodePadding >= kMaxEventRecordBytes && kDecodePadding >= 1 + 2 * kMaxVarintBytes);

template <typename T>
T load_le(const uint8_t* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(p[i]) << (8 * i);
  return v;
}

// What follows each record tag, as bits of BinaryReader::tag_layout_.
enum : uint8_t { kIsOp = 1, kRange = 2, kOrder = 4, kObject = 8, kThreadObject = 16 };

// Unsigned LEB128. May read up to kMaxVarintBytes bytes, which the padding
// makes safe. A value that does not fit 64 bits sets `bad`. (Most varints in a
// trace are one byte; a branch-free 8-byte decoder measured slower.)
inline const uint8_t* get_varint(const uint8_t* p, uint64_t& out, bool& bad) {
  uint64_t b = *p++;
  if (b < 0x80) {
    out = b;
    return p;
  }
  uint64_t v = b & 0x7f;
  for (int shift = 7; shift < 63; shift += 7) {
    b = *p++;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) {
      out = v;
      return p;
    }
  }
  b = *p++;  // the tenth byte holds bit 63 and nothing else
  bad |= b > 1;
  out = v | (b << 63);
  return p;
}

inline uint64_t unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

// Which rule a decoded event record breaks, in the order a reader would check
// them. A too-long varint comes first: it cannot be an artifact of the zero
// padding, while the misaligned reads after it may well run past the end.
std::string event_problem(Op op, bool bad_varint, bool truncated, uint64_t tid, uint64_t addr, uint64_t size,
                          uint64_t order) {
  if (bad_varint) return "varint does not fit 64 bits";
  if (truncated) return "record is truncated";
  if (tid > UINT32_MAX) return fmt::format("thread id {} does not fit 32 bits", tid);
  if (has_range(op) && !valid_range(op, addr, size)) return range_problem(op, addr, size);
  if (targets_thread(op) && addr > UINT32_MAX) {
    return fmt::format("{} of thread id {} beyond 2^32-1", op_name(op), addr);
  }
  if (order >= kMemoryOrderCount) return fmt::format("unknown memory order {}", order);
  return "invalid event record";
}

}  // namespace

void ZstdDCtxDeleter::operator()(ZSTD_DCtx_s* dctx) const { ZSTD_freeDCtx(dctx); }

BinaryReader::BinaryReader(Input input) : input_(std::move(input)) {
  tag_layout_.fill(0);
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    tag_layout_[i] = kIsOp | (has_range(op) ? kRange : 0) | (has_order(op) ? kOrder : 0) |
                     (targets_sync_object(op) || targets_thread(op) ? kObject : 0) |
                     (targets_thread(op) ? kThreadObject : 0);
  }
  read_header();
}

void BinaryReader::fail(const std::string& reason) {
  // Remembered so that a caller who catches the error and reads on gets it
  // again, instead of the events of later blocks as if nothing were missing.
  error_.emplace(fmt::format("{}: block {} at byte {}", input_.name(), block_index_, block_offset_), reason);
  begin_ = pos_ = end_ = nullptr;
  throw *error_;
}

void BinaryReader::fail_record(const uint8_t* record, const std::string& reason) {
  fail(fmt::format("record {} at payload offset {}: {}", block_records_, record - begin_, reason));
}

void BinaryReader::read_header() {
  uint8_t h[kBinaryHeaderBytes];
  const size_t got = input_.read(h, sizeof h);
  auto bad = [&](const std::string& reason) { throw TraceError(fmt::format("{}: header", input_.name()), reason); };
  if (std::memcmp(h, kBinaryMagic.data(), std::min(got, kBinaryMagic.size())) != 0) {
    bad("not a raceaccel binary trace (bad magic)");
  }
  if (got < sizeof h) bad(fmt::format("truncated file header ({} of {} bytes)", got, sizeof h));
  const auto version = load_le<uint16_t>(h + 8);
  if (version != kBinaryVersion && version != kBinaryVersionProgramInfo) {
    bad(fmt::format("unsupported version {} (this reader reads {} and {})", version, kBinaryVersion,
                    kBinaryVersionProgramInfo));
  }
  version_ = version;
  // Nonzero flags or reserved bits would mean a feature this reader lacks.
  const auto flags = load_le<uint16_t>(h + 10);
  if (flags != 0) bad(fmt::format("unsupported flags {:#06x}", flags));
  if (load_le<uint32_t>(h + 12) != 0) bad("reserved header field is not zero");
}

// The hot path: one event record, or a name record via decode_name. All
// checks are folded into one rarely taken branch; event_problem then tells
// which rule was broken.
[[gnu::always_inline]] inline bool BinaryReader::decode_record(Event& e) {
  const uint8_t* const record = pos_;
  const uint8_t tag = *record;
  const uint8_t layout = tag_layout_[tag];
  if (!(layout & kIsOp)) return decode_name(record);

  bool bad = false;
  uint64_t tid, size = 0, addr = 0, delta, order = 0;
  const uint8_t* p = get_varint(record + 1, tid, bad);
  if (layout & kRange) {
    p = get_varint(p, delta, bad);
    addr = prev_addr_ + unzigzag(delta);
    p = get_varint(p, size, bad);
  }
  if (layout & kOrder) order = *p++;
  if (layout & kObject) p = get_varint(p, addr, bad);
  p = get_varint(p, delta, bad);
  const bool bad_range = (layout & kRange) && !valid_range(static_cast<Op>(tag), addr, size);
  const bool bad_thread = (layout & kThreadObject) && addr > UINT32_MAX;
  if (bad | (p > end_) | (tid > UINT32_MAX) | bad_range | bad_thread | (order >= kMemoryOrderCount)) [[unlikely]] {
    fail_record(record, event_problem(static_cast<Op>(tag), bad, p > end_, tid, addr, size, order));
  }

  if (layout & kRange) prev_addr_ = addr;
  prev_site_ += unzigzag(delta);
  e.op = static_cast<Op>(tag);
  e.order = static_cast<MemoryOrder>(order);
  e.tid = static_cast<ThreadId>(tid);
  e.addr = addr;
  e.size = size;
  e.site = prev_site_;
  pos_ = p;
  ++block_records_;
  ++block_events_;
  return true;
}

bool BinaryReader::next(Event& event) {
  for (;;) {
    if (pos_ < end_) {
      if (decode_record(event)) return true;
      continue;
    }
    if (error_) throw *error_;
    if (done_) return false;
    if (in_block_) close_block();
    if (!open_block()) return false;
  }
}

bool BinaryReader::decode_name(const uint8_t* record) {
  const uint8_t tag = *record;
  if ((tag & kNameRecordTag) == 0 || (tag & ~kNameRecordTag) > static_cast<uint8_t>(SymbolKind::Location)) {
    fail_record(record, fmt::format("unknown record tag {:#04x}", tag));
  }
  bool bad = false;
  uint64_t id, length;
  const uint8_t* p = get_varint(record + 1, id, bad);
  p = get_varint(p, length, bad);
  if (bad) fail_record(record, "varint does not fit 64 bits");
  if (p > end_) fail_record(record, "record is truncated");
  if (length > kMaxNameBytes) {
    fail_record(record, fmt::format("name of {} bytes exceeds the limit of {}", length, kMaxNameBytes));
  }
  if (length > static_cast<uint64_t>(end_ - p)) fail_record(record, "name is truncated");
  symbols_.set(static_cast<SymbolKind>(tag & ~kNameRecordTag), id,
               std::string(reinterpret_cast<const char*>(p), length));
  pos_ = p + length;
  ++block_records_;
  return false;
}

bool BinaryReader::open_block() {
  block_index_ = blocks_opened_++;
  block_offset_ = input_.offset();
  uint8_t h[kBlockHeaderBytes];
  const size_t got = input_.read(h, sizeof h);
  if (got == 0) fail("the trace ends without an end-of-trace block (truncated file?)");
  if (got < sizeof h) fail(fmt::format("truncated block header ({} of {} bytes)", got, sizeof h));
  if (std::memcmp(h, kBlockMagic.data(), kBlockMagic.size()) != 0) fail("bad block magic (expected \"RBLK\")");
  const auto stored_size = load_le<uint32_t>(h + 8);
  const auto raw_size = load_le<uint32_t>(h + 12);
  if (stored_size > kMaxBlockBytes || raw_size > kMaxBlockBytes) {
    fail(fmt::format("block size {} exceeds the limit of {} bytes", std::max(stored_size, raw_size), kMaxBlockBytes));
  }

  // Raw payloads go straight to the decode buffer; only zstd needs a second one.
  const uint8_t codec = h[5];
  std::vector<uint8_t>& buffer = codec == kCodecRaw ? raw_ : stored_;
  buffer.resize(stored_size + kDecodePadding);
  const size_t got_payload = input_.read(buffer.data(), stored_size);
  if (got_payload < stored_size) fail(fmt::format("truncated payload ({} of {} bytes)", got_payload, stored_size));
  // Checked before any header field is believed, so that damage shows up as
  // what it is rather than as a confusing decoding error.
  const XXH64_hash_t seed = XXH64(h, kBlockChecksumOffset, 0);
  if (XXH64(buffer.data(), stored_size, seed) != load_le<uint64_t>(h + kBlockChecksumOffset)) {
    fail("checksum mismatch (damaged block)");
  }

  const uint8_t type = h[4];
  const auto records = load_le<uint32_t>(h + 16);
  const auto events = load_le<uint32_t>(h + 20);
  if (load_le<uint16_t>(h + 6) != 0) fail("reserved block header field is not zero");
  if (type == kBlockTypeEnd) {
    if (codec != kCodecRaw || stored_size != kEndPayloadBytes || records != 0 || events != 0) {
      fail(fmt::format("malformed end block (codec {}, {} bytes, {} records, {} events)", codec, stored_size, records,
                       events));
    }
    read_end_block(raw_.data());
    return false;
  }
  const bool program_info = type == kBlockTypeProgramInfo && version_ >= kBinaryVersionProgramInfo;
  if (type != kBlockTypeEvents && !program_info) fail(fmt::format("unknown block type {}", type));
  if (program_info && (records != 0 || events != 0)) {
    fail(fmt::format("program-info block declares {} records ({} events); it holds none", records, events));
  }

  if (codec == kCodecZstd) {
    if (!dctx_) {
      dctx_.reset(ZSTD_createDCtx());
      if (!dctx_) throw std::bad_alloc();
    }
    raw_.resize(raw_size + kDecodePadding);
    const size_t n = ZSTD_decompressDCtx(dctx_.get(), raw_.data(), raw_size, stored_.data(), stored_size);
    if (ZSTD_isError(n)) fail(fmt::format("zstd decompression failed: {}", ZSTD_getErrorName(n)));
    if (n != raw_size) fail(fmt::format("payload decompresses to {} bytes, the header says {}", n, raw_size));
  } else if (codec != kCodecRaw) {
    fail(fmt::format("unknown codec {}", codec));
  } else if (stored_size != raw_size) {
    fail(fmt::format("raw block stores {} bytes but declares {} uncompressed", stored_size, raw_size));
  }
  std::memset(raw_.data() + raw_size, 0, kDecodePadding);
  if (program_info) {  // kept whole until the end block: its records may straddle blocks
    program_bytes_.insert(program_bytes_.end(), raw_.begin(), raw_.begin() + raw_size);
    begin_ = pos_ = end_ = nullptr;
    in_block_ = false;
    return true;
  }

  begin_ = pos_ = raw_.data();
  end_ = begin_ + raw_size;
  prev_addr_ = prev_site_ = 0;
  expected_records_ = records;
  expected_events_ = events;
  block_records_ = block_events_ = 0;
  in_block_ = true;
  return true;
}

void BinaryReader::close_block() {
  if (block_records_ != expected_records_ || block_events_ != expected_events_) {
    fail(fmt::format("block header declares {} records ({} events) but the payload holds {} ({} events)",
                     expected_records_, expected_events_, block_records_, block_events_));
  }
  total_events_ += block_events_;
  ++event_blocks_;
  in_block_ = false;
}

void BinaryReader::read_end_block(const uint8_t* totals) {
  const auto declared_events = load_le<uint64_t>(totals);
  const auto declared_blocks = load_le<uint64_t>(totals + 8);
  if (declared_events != total_events_) {
    fail(fmt::format("end block counts {} events, but the trace holds {}", declared_events, total_events_));
  }
  if (declared_blocks != event_blocks_) {
    fail(fmt::format("end block counts {} event blocks, but the trace holds {}", declared_blocks, event_blocks_));
  }
  if (!program_bytes_.empty()) {
    try {
      program_info_ = decode_program_info(program_bytes_.data(), program_bytes_.size());
    } catch (const std::runtime_error& err) {
      fail(err.what());
    }
    program_bytes_ = {};
  }
  done_ = true;
  begin_ = pos_ = end_ = nullptr;
  if (!input_.peek(1).empty()) {
    block_index_ = blocks_opened_;
    block_offset_ = input_.offset();
    fail("unexpected data after the end-of-trace block");
  }
}

}  // namespace raceaccel
