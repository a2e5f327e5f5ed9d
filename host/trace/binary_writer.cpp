#include <fmt/format.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <new>
#include <stdexcept>

#include "trace/binary_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

template <typename T>
void store_le(uint8_t* p, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint8_t* put_varint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v) | 0x80;
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

// Deltas are taken as wrapping u64 differences and read as signed, so that
// small steps in either direction encode in few bytes.
uint64_t zigzag(uint64_t delta) { return (delta << 1) ^ static_cast<uint64_t>(static_cast<int64_t>(delta) >> 63); }

// The decoder's rules, plus one more: fields the format does not store must
// hold their defaults, because the reader could not reproduce them.
void check_event(const Event& e, uint64_t index) {
  auto reject = [&](const std::string& why) {
    throw std::invalid_argument(fmt::format("binary trace: event {}: {}", index, why));
  };
  const auto op = static_cast<unsigned>(e.op);
  if (op >= static_cast<unsigned>(kOpCount)) reject(fmt::format("unknown operation {}", op));
  auto name = [&] { return op_name(e.op); };  // only on the error paths: this check runs per event
  if (has_order(e.op)) {
    if (static_cast<unsigned>(e.order) >= static_cast<unsigned>(kMemoryOrderCount)) {
      reject(fmt::format("unknown memory order {}", static_cast<unsigned>(e.order)));
    }
  } else if (e.order != MemoryOrder::Relaxed) {
    reject(fmt::format("{} carries no memory order, but the event has {}", name(), order_name(e.order)));
  }
  if (has_range(e.op)) {
    if (!valid_range(e.op, e.addr, e.size)) reject(range_problem(e.op, e.addr, e.size));
    return;
  }
  if (e.size != 0) reject(fmt::format("{} carries no size, but the event has size {}", name(), e.size));
  if (targets_thread(e.op) && e.addr > UINT32_MAX) {
    reject(fmt::format("{} of thread id {} beyond 2^32-1", name(), e.addr));
  }
  if (!targets_thread(e.op) && !targets_sync_object(e.op) && e.addr != 0) {
    reject(fmt::format("{} carries no address or object, but the event has {:#x}", name(), e.addr));
  }
}

void check_symbol(const Symbol& s) {
  if (static_cast<unsigned>(s.kind) > static_cast<unsigned>(SymbolKind::Location)) {
    throw std::invalid_argument(fmt::format("binary trace: symbol kind {} is unknown", static_cast<unsigned>(s.kind)));
  }
  // A long name is legitimate data (STD names have no limit), just not
  // representable here; hence not invalid_argument.
  if (s.name.size() > kMaxNameBytes) {
    throw UnrepresentableEvent(
        fmt::format("binary trace: a name of {} bytes exceeds the format's limit of {}", s.name.size(), kMaxNameBytes));
  }
}

}  // namespace

void ZstdCCtxDeleter::operator()(ZSTD_CCtx_s* cctx) const { ZSTD_freeCCtx(cctx); }

BinaryWriter::BinaryWriter(std::ostream& out, BinaryWriterOptions options)
    : out_(out),
      options_(options),
      // The block closes after the record that reaches flush_at_, so leave
      // room for one maximal record below the hard limit.
      flush_at_(std::clamp<size_t>(options.block_bytes, 1, kMaxBlockBytes - kMaxNameRecordBytes)) {
  if (options_.compress) {
    if (options_.zstd_level < ZSTD_minCLevel() || options_.zstd_level > ZSTD_maxCLevel()) {
      throw std::invalid_argument(fmt::format("binary trace: zstd level {} is outside {}..{}", options_.zstd_level,
                                              ZSTD_minCLevel(), ZSTD_maxCLevel()));
    }
    cctx_.reset(ZSTD_createCCtx());
    if (!cctx_) throw std::bad_alloc();
  }
  block_.resize(flush_at_ + kMaxNameRecordBytes);
  if (options_.compress) compressed_.resize(ZSTD_compressBound(block_.size()));

  uint8_t header[kBinaryHeaderBytes] = {};
  std::copy(kBinaryMagic.begin(), kBinaryMagic.end(), header);
  store_le<uint16_t>(header + 8, options_.program_info ? kBinaryVersionProgramInfo : kBinaryVersion);
  put(header, sizeof header);
}

void BinaryWriter::write(const Event& event, const SymbolTable& symbols) {
  if (finished_) throw std::logic_error("BinaryWriter::write called after finish");
  if (program_info_written_) throw std::logic_error("BinaryWriter::write called after write_program_info");
  check_event(event, events_written_);
  const auto& entries = symbols.entries();
  // A table that shrank is a different table; repeating names is harmless,
  // omitting them is not.
  if (entries.size() < symbols_written_) symbols_written_ = 0;
  for (size_t i = symbols_written_; i < entries.size(); ++i) check_symbol(entries[i]);
  for (; symbols_written_ < entries.size(); ++symbols_written_) append_name(entries[symbols_written_]);
  append_event(event);
  ++events_written_;
}

void BinaryWriter::append_name(const Symbol& s) {
  uint8_t* p = block_.data() + used_;
  *p++ = kNameRecordTag | static_cast<uint8_t>(s.kind);
  p = put_varint(p, s.id);
  p = put_varint(p, s.name.size());
  p = std::copy(s.name.begin(), s.name.end(), p);
  used_ = static_cast<size_t>(p - block_.data());
  end_record(false);
}

void BinaryWriter::append_event(const Event& e) {
  uint8_t* p = block_.data() + used_;
  *p++ = static_cast<uint8_t>(e.op);
  p = put_varint(p, e.tid);
  if (has_range(e.op)) {
    p = put_varint(p, zigzag(e.addr - prev_addr_));
    prev_addr_ = e.addr;
    p = put_varint(p, e.size);
  }
  if (has_order(e.op)) *p++ = static_cast<uint8_t>(e.order);
  if (targets_sync_object(e.op) || targets_thread(e.op)) p = put_varint(p, e.addr);
  p = put_varint(p, zigzag(e.site - prev_site_));
  prev_site_ = e.site;
  used_ = static_cast<size_t>(p - block_.data());
  end_record(true);
}

void BinaryWriter::end_record(bool is_event) {
  ++block_records_;
  if (is_event) ++block_events_;
  if (used_ >= flush_at_) flush_block();
}

void BinaryWriter::flush_block() {
  if (block_records_ == 0) return;
  const uint8_t* payload = block_.data();
  size_t stored = used_;
  uint8_t codec = kCodecRaw;
  if (options_.compress) {
    // A failed or unprofitable compression falls back to raw storage, which
    // is always valid.
    const size_t n = ZSTD_compressCCtx(cctx_.get(), compressed_.data(), compressed_.size(), block_.data(), used_,
                                       options_.zstd_level);
    if (!ZSTD_isError(n) && n < used_) {
      payload = compressed_.data();
      stored = n;
      codec = kCodecZstd;
    }
  }
  write_block(kBlockTypeEvents, codec, payload, stored, used_, block_records_, block_events_);
  ++event_blocks_;
  used_ = 0;
  block_records_ = block_events_ = 0;
  prev_addr_ = prev_site_ = 0;  // every block decodes on its own
}

void BinaryWriter::write_block(uint8_t type, uint8_t codec, const uint8_t* payload, size_t stored_size, size_t raw_size,
                               uint32_t records, uint32_t events) {
  uint8_t header[kBlockHeaderBytes] = {};
  std::copy(kBlockMagic.begin(), kBlockMagic.end(), header);
  header[4] = type;
  header[5] = codec;
  store_le<uint32_t>(header + 8, static_cast<uint32_t>(stored_size));
  store_le<uint32_t>(header + 12, static_cast<uint32_t>(raw_size));
  store_le<uint32_t>(header + 16, records);
  store_le<uint32_t>(header + 20, events);
  const XXH64_hash_t seed = XXH64(header, kBlockChecksumOffset, 0);
  store_le<uint64_t>(header + kBlockChecksumOffset, XXH64(payload, stored_size, seed));
  put(header, sizeof header);
  put(payload, stored_size);
}

void BinaryWriter::write_program_info(const ProgramInfo& info) {
  if (!options_.program_info) throw std::logic_error("BinaryWriter: program info needs a version-2 file");
  if (finished_ || program_info_written_) throw std::logic_error("BinaryWriter::write_program_info called late");
  program_info_written_ = true;
  flush_block();
  const std::vector<uint8_t> bytes = encode_program_info(info);
  // Records may straddle blocks: the reader joins the payloads before decoding.
  for (size_t at = 0; at < bytes.size(); at += kProgramInfoChunkBytes) {
    const size_t n = std::min(kProgramInfoChunkBytes, bytes.size() - at);
    const uint8_t* payload = bytes.data() + at;
    size_t stored = n;
    uint8_t codec = kCodecRaw;
    std::vector<uint8_t> packed;
    if (options_.compress) {
      packed.resize(ZSTD_compressBound(n));
      const size_t z = ZSTD_compressCCtx(cctx_.get(), packed.data(), packed.size(), payload, n, options_.zstd_level);
      if (!ZSTD_isError(z) && z < n) {
        payload = packed.data();
        stored = z;
        codec = kCodecZstd;
      }
    }
    write_block(kBlockTypeProgramInfo, codec, payload, stored, n, 0, 0);
  }
}

void BinaryWriter::finish() {
  if (finished_) throw std::logic_error("BinaryWriter::finish called twice");
  finished_ = true;
  flush_block();
  uint8_t totals[kEndPayloadBytes];
  store_le<uint64_t>(totals, events_written_);
  store_le<uint64_t>(totals + 8, event_blocks_);
  write_block(kBlockTypeEnd, kCodecRaw, totals, sizeof totals, sizeof totals, 0, 0);
  out_.flush();
  if (!out_) throw IoError("binary trace: flushing the output failed");
}

void BinaryWriter::put(const void* bytes, size_t n) {
  out_.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(n));
  if (!out_) throw IoError("binary trace: writing the output failed");
}

}  // namespace raceaccel
