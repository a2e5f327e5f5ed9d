// The binary trace format (".rtrace"): a compact, checksummed, block-structured
// encoding that round-trips every Event exactly.
//
//   file    = header(16) block* end-block
//   header  = magic "\x89RAT\r\n\x1a\n" | u16 version (1 or 2) | u16 flags=0 | u32 reserved=0
//   block   = "RBLK" | u8 type | u8 codec | u16 reserved=0 | u32 stored_size | u32 raw_size
//             | u32 record_count | u32 event_count | u64 checksum | payload(stored_size)
//
// All integers are little-endian. checksum = XXH64(payload, seed = XXH64(header bytes 0..24,
// seed 0)), so a damaged header field is caught as surely as a damaged payload. Each event
// block decodes on its own (delta state restarts at zero), which bounds a reader's memory
// to one block and lets a damaged file be reported by block number and byte offset.
//
// An event record is the op byte, varint tid, then per op: zigzag-delta addr and varint size
// (byte ranges), an order byte (atomics, fence), a varint object id (sync objects, fork/join),
// and finally the zigzag-delta site. A name record is 0x80|kind, varint id, varint length,
// bytes. The end block (type 2, raw) carries u64 total_events and u64 total_blocks, and
// nothing may follow it. Version 2 adds program-info blocks (type 3, before the end block):
// the runtime's site table, modules and threads (program_info.hpp), read by `check` to
// symbolize reports; version 1 files read as before. docs/trace-formats.md describes the
// format in full.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

#include "trace/input.hpp"
#include "trace/program_info.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_reader.hpp"
#include "trace/trace_writer.hpp"

// zstd contexts, declared here so that users of this header need not see zstd.h.
struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;

namespace raceaccel {

struct ZstdCCtxDeleter {
  void operator()(ZSTD_CCtx_s* cctx) const;
};
struct ZstdDCtxDeleter {
  void operator()(ZSTD_DCtx_s* dctx) const;
};

inline constexpr std::string_view kBinaryMagic{"\x89RAT\r\n\x1a\n", 8};
// Version 1: events only. Version 2: may also hold program-info blocks. The
// writer writes 1 unless asked for program info, so traces without it stay
// readable by older readers.
inline constexpr uint16_t kBinaryVersion = 1;
inline constexpr uint16_t kBinaryVersionProgramInfo = 2;
inline constexpr size_t kBinaryHeaderBytes = 16;

inline constexpr std::string_view kBlockMagic{"RBLK", 4};
inline constexpr size_t kBlockHeaderBytes = 32;
inline constexpr size_t kBlockChecksumOffset = 24;  // the header bytes before it seed the checksum
inline constexpr uint8_t kBlockTypeEvents = 1;
inline constexpr uint8_t kBlockTypeEnd = 2;
inline constexpr uint8_t kBlockTypeProgramInfo = 3;  // version 2 only
// Program info is split into blocks of at most this many payload bytes.
inline constexpr size_t kProgramInfoChunkBytes = size_t{4} << 20;
inline constexpr uint8_t kCodecRaw = 0;
inline constexpr uint8_t kCodecZstd = 1;
// Upper bound for stored_size and raw_size; larger values are corruption, not
// a reason to allocate.
inline constexpr uint32_t kMaxBlockBytes = 16u << 20;
inline constexpr size_t kEndPayloadBytes = 16;

inline constexpr uint8_t kNameRecordTag = 0x80;  // | SymbolKind
inline constexpr uint64_t kMaxNameBytes = 4096;
inline constexpr size_t kMaxVarintBytes = 10;
// Longest possible records: an atomic (op, tid, addr, size, order, site) and a
// name of the maximal length (tag, id, length < 2^14, bytes).
inline constexpr size_t kMaxEventRecordBytes = 1 + 4 * kMaxVarintBytes + 1;
inline constexpr size_t kMaxNameRecordBytes = 1 + kMaxVarintBytes + 2 + kMaxNameBytes;

struct BinaryWriterOptions {
  bool compress = true;
  int zstd_level = 3;
  // Target uncompressed payload per block. Smaller blocks cost ratio and
  // per-block overhead; larger ones cost reader memory. Clamped so that no
  // block exceeds kMaxBlockBytes.
  size_t block_bytes = 256 * 1024;
  // Write a version-2 file, which may end with program info
  // (write_program_info).
  bool program_info = false;
};

class BinaryWriter final : public TraceWriter {
 public:
  // Writes the file header immediately. Throws std::invalid_argument for a
  // zstd level zstd does not support, IoError if the stream fails.
  explicit BinaryWriter(std::ostream& out, BinaryWriterOptions options = {});

  // Throws std::invalid_argument for an event the reader would reject or
  // could not reproduce exactly, so a finished file always reads back as the
  // events that were written, and UnrepresentableEvent for a name longer than
  // kMaxNameBytes. Nothing is written for a rejected event. Assumes `symbols`
  // is one table that only grows.
  void write(const Event& event, const SymbolTable& symbols) override;
  // Version 2 only (BinaryWriterOptions::program_info): writes the program
  // info after the events written so far; then only finish() may follow.
  void write_program_info(const ProgramInfo& info);
  void finish() override;

 private:
  void append_name(const Symbol& symbol);
  void append_event(const Event& event);
  void end_record(bool is_event);
  void flush_block();
  void write_block(uint8_t type, uint8_t codec, const uint8_t* payload, size_t stored_size, size_t raw_size,
                   uint32_t records, uint32_t events);
  void put(const void* bytes, size_t n);

  std::ostream& out_;
  BinaryWriterOptions options_;
  size_t flush_at_;             // payload size that closes a block
  std::vector<uint8_t> block_;  // payload under construction; capacity fixed up front
  size_t used_ = 0;
  std::vector<uint8_t> compressed_;
  std::unique_ptr<ZSTD_CCtx_s, ZstdCCtxDeleter> cctx_;
  uint64_t prev_addr_ = 0, prev_site_ = 0;
  uint32_t block_records_ = 0, block_events_ = 0;
  uint64_t events_written_ = 0, event_blocks_ = 0;
  size_t symbols_written_ = 0;
  bool finished_ = false;
  bool program_info_written_ = false;
};

class BinaryReader final : public TraceReader {
 public:
  // Reads and checks the file header; throws TraceError if it is not a
  // version-1 or version-2 binary trace.
  explicit BinaryReader(Input input);

  bool next(Event& event) override;
  const SymbolTable& symbols() const override { return symbols_; }
  TraceFormat format() const override { return TraceFormat::Binary; }
  uint64_t bytes_read() const override { return input_.offset(); }
  const ProgramInfo* program_info() const override { return program_info_ ? &*program_info_ : nullptr; }

 private:
  [[noreturn]] void fail(const std::string& reason);
  [[noreturn, gnu::cold]] void fail_record(const uint8_t* record, const std::string& reason);
  void read_header();
  bool open_block();  // false once the end block has been read and checked
  void close_block();
  void read_end_block(const uint8_t* totals);
  bool decode_record(Event& event);
  bool decode_name(const uint8_t* p);

  Input input_;
  SymbolTable symbols_;
  // Per record tag: whether it is an event and which fields follow. Built
  // from the event model once per reader, so decoding needs one lookup.
  std::array<uint8_t, 256> tag_layout_;
  std::unique_ptr<ZSTD_DCtx_s, ZstdDCtxDeleter> dctx_;
  // Payload of the current block, followed by kDecodePadding zero bytes so
  // that records decode without a bounds check per varint; a record that
  // runs into the padding is reported as truncated.
  std::vector<uint8_t> raw_;
  std::vector<uint8_t> stored_;  // compressed payload, before decompression
  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  uint64_t prev_addr_ = 0, prev_site_ = 0;
  uint32_t expected_records_ = 0, expected_events_ = 0;
  uint32_t block_records_ = 0, block_events_ = 0;
  uint64_t block_index_ = 0, block_offset_ = 0, blocks_opened_ = 0;
  uint64_t total_events_ = 0, event_blocks_ = 0;
  bool in_block_ = false;
  bool done_ = false;
  uint16_t version_ = kBinaryVersion;
  std::vector<uint8_t> program_bytes_;  // the program-info blocks' payloads, decoded at the end block
  std::optional<ProgramInfo> program_info_;
  std::optional<TraceError> error_;  // once thrown, every later next() throws it again
};

}  // namespace raceaccel
