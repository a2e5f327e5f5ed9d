// Round trips and corruption handling of the binary trace format. The block
// builders below encode the format independently of BinaryWriter (from the
// specification in binary_format.hpp), so damaged files with valid checksums
// can be made by hand and the writer's bytes can be checked against the spec.
#include "trace/binary_format.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "trace/input.hpp"
#include "trace/program_info.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kU32Max = std::numeric_limits<uint32_t>::max();
const std::string kName = "mem.rtrace";

// ---- independent encoder ---------------------------------------------------

template <typename T>
void put_le(std::string& out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
}

std::string varint(uint64_t v) {
  std::string out;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    if (v != 0) b |= 0x80;
    out += static_cast<char>(b);
  } while (v != 0);
  return out;
}

std::string zigzag_varint(uint64_t delta) {
  return varint((delta << 1) ^ static_cast<uint64_t>(static_cast<int64_t>(delta) >> 63));
}

std::string byte(unsigned b) { return std::string(1, static_cast<char>(b)); }

std::string file_header(uint16_t version = 1, uint16_t flags = 0, uint32_t reserved = 0) {
  std::string out(kBinaryMagic);
  put_le<uint16_t>(out, version);
  put_le<uint16_t>(out, flags);
  put_le<uint32_t>(out, reserved);
  return out;
}

struct BlockSpec {
  uint8_t type = kBlockTypeEvents;
  uint8_t codec = kCodecRaw;
  uint16_t reserved = 0;
  std::string payload;  // as stored
  uint32_t raw_size = 0;
  uint32_t records = 0;
  uint32_t events = 0;
};

std::string block(const BlockSpec& b) {
  std::string out = "RBLK";
  out += static_cast<char>(b.type);
  out += static_cast<char>(b.codec);
  put_le<uint16_t>(out, b.reserved);
  put_le<uint32_t>(out, static_cast<uint32_t>(b.payload.size()));
  put_le<uint32_t>(out, b.raw_size);
  put_le<uint32_t>(out, b.records);
  put_le<uint32_t>(out, b.events);
  const uint64_t seed = XXH64(out.data(), out.size(), 0);
  put_le<uint64_t>(out, XXH64(b.payload.data(), b.payload.size(), seed));
  return out + b.payload;
}

std::string raw_block(const std::string& payload, uint32_t records, uint32_t events) {
  return block({kBlockTypeEvents, kCodecRaw, 0, payload, static_cast<uint32_t>(payload.size()), records, events});
}

std::string end_block(uint64_t total_events, uint64_t total_blocks) {
  std::string totals;
  put_le<uint64_t>(totals, total_events);
  put_le<uint64_t>(totals, total_blocks);
  return block({kBlockTypeEnd, kCodecRaw, 0, totals, kEndPayloadBytes, 0, 0});
}

// A file of one raw event block holding `payload`, then a consistent end block.
std::string one_block_file(const std::string& payload, uint32_t records, uint32_t events) {
  return file_header() + raw_block(payload, records, events) + end_block(events, 1);
}

// A read of 4 bytes at 0x1000 by thread 1 at site 7, as the first record of a block.
std::string read_record() { return byte(0) + varint(1) + zigzag_varint(0x1000) + varint(4) + zigzag_varint(7); }

// ---- reading and writing ---------------------------------------------------

std::string encode(const std::vector<Event>& events, BinaryWriterOptions options = {},
                   const SymbolTable& symbols = {}) {
  std::ostringstream out;
  BinaryWriter writer(out, options);
  for (const Event& e : events) writer.write(e, symbols);
  writer.finish();
  return out.str();
}

std::vector<Event> decode(const std::string& bytes, SymbolTable* symbols = nullptr) {
  BinaryReader reader(Input::from_memory(bytes, kName));
  EXPECT_EQ(reader.format(), TraceFormat::Binary);
  std::vector<Event> events;
  Event e;
  while (reader.next(e)) events.push_back(e);
  EXPECT_FALSE(reader.next(e));  // stays at the end
  EXPECT_EQ(reader.bytes_read(), bytes.size());
  if (symbols != nullptr) *symbols = reader.symbols();
  return events;
}

// Reads the damaged file to the end and returns the error it must raise.
TraceError read_error(const std::string& bytes) {
  try {
    BinaryReader reader(Input::from_memory(bytes, kName));
    Event e;
    while (reader.next(e)) {
    }
  } catch (const TraceError& error) {
    return error;
  }
  ADD_FAILURE() << "damaged trace read without error";
  return TraceError("none", "none");
}

std::string block_where(uint64_t index, uint64_t offset) {
  return fmt::format("{}: block {} at byte {}", kName, index, offset);
}

void expect_block_error(const std::string& bytes, uint64_t index, uint64_t offset, const std::string& reason_part) {
  const TraceError error = read_error(bytes);
  EXPECT_EQ(error.where(), block_where(index, offset)) << error.what();
  EXPECT_NE(std::string(error.what()).find(reason_part), std::string::npos) << error.what();
}

void expect_header_error(const std::string& bytes, const std::string& reason_part) {
  const TraceError error = read_error(bytes);
  EXPECT_EQ(error.where(), kName + ": header") << error.what();
  EXPECT_NE(std::string(error.what()).find(reason_part), std::string::npos) << error.what();
}

// Offsets of all blocks, walking the headers of a well-formed file.
std::vector<size_t> block_offsets(const std::string& bytes) {
  std::vector<size_t> offsets;
  for (size_t at = kBinaryHeaderBytes; at < bytes.size();) {
    offsets.push_back(at);
    uint32_t stored = 0;
    for (int i = 0; i < 4; ++i) stored |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 8 + i])) << (8 * i);
    at += kBlockHeaderBytes + stored;
  }
  return offsets;
}

// A valid event of a random operation with varied field magnitudes.
Event random_event(std::mt19937_64& rng) {
  Event e;
  e.op = static_cast<Op>(rng() % kOpCount);
  e.tid = static_cast<ThreadId>(rng() % 3 == 0 ? rng() : rng() % 16);
  e.site = rng() % 4 == 0 ? rng() : 0x400000 + rng() % 4096;
  if (has_range(e.op)) {
    const uint64_t max_size = (e.op == Op::Alloc || e.op == Op::Free) ? uint64_t{1} << 40 : kMaxAccessBytes;
    e.size = rng() % 5 == 0 ? 1 + rng() % max_size : 1 + rng() % 16;
    e.addr = rng() % 4 == 0 ? rng() : 0x7f0000000000 + rng() % 65536;
    if (e.addr + (e.size - 1) < e.addr) e.addr = 0 - e.size;
  }
  if (has_order(e.op)) e.order = static_cast<MemoryOrder>(rng() % kMemoryOrderCount);
  if (targets_sync_object(e.op)) e.addr = rng() % 2 == 0 ? rng() : rng() % 100;
  if (targets_thread(e.op)) e.addr = rng() % 2 == 0 ? static_cast<uint32_t>(rng()) : rng() % 16;
  return e;
}

std::vector<Event> every_op_and_order() {
  std::vector<Event> events;
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    for (int m = 0; m < (has_order(op) ? kMemoryOrderCount : 1); ++m) {
      Event e;
      e.op = op;
      e.order = static_cast<MemoryOrder>(m);
      e.tid = static_cast<ThreadId>(i);
      e.site = 100 + i;
      if (has_range(op)) {
        e.addr = 0x1000 * (i + 1);
        e.size = 1 + m;
      }
      if (targets_sync_object(op)) e.addr = 40 + i;
      if (targets_thread(op)) e.addr = 7;
      events.push_back(e);
    }
  }
  return events;
}

std::vector<Event> extreme_events() {
  return {
      Event::read(0, 0, 1, 0),
      Event::write(kU32Max, kU64Max, 1, kU64Max),                                    // last byte of the address space
      Event::read(1, 0, 1, 0),                                                       // largest backward deltas
      Event::write(2, kU64Max - kMaxAccessBytes + 1, kMaxAccessBytes, kU64Max - 1),  // the longest access
      Event::range(Op::Alloc, 3, 0, uint64_t{1} << 40, 1),
      Event::range(Op::Free, 3, 0x8000000000000000, 0x8000000000000000, kU64Max),
      Event::atomic(Op::AtomicRmw, kU32Max, kU64Max - 7, 8, MemoryOrder::SeqCst, kU64Max),
      Event::sync(Op::Acquire, 4, kU64Max, 0),
      Event::sync(Op::Release, 4, 0, kU64Max),
      Event::sync(Op::Fork, 0, kU32Max, 1),
      Event::sync(Op::Join, kU32Max, 0, 0),
      Event::sync(Op::BarrierEnter, 5, kU64Max, 0x8000000000000000),
      Event::fence(kU32Max, MemoryOrder::AcqRel, kU64Max),
      Event::sync(Op::Begin, 0, 0, kU64Max),
      Event::sync(Op::End, 0, 0, 0),
  };
}

class BinaryRoundTrip : public testing::TestWithParam<bool> {
 protected:
  BinaryWriterOptions options() const { return {.compress = GetParam()}; }
};

TEST_P(BinaryRoundTrip, EveryOpAndOrder) {
  const auto events = every_op_and_order();
  EXPECT_EQ(decode(encode(events, options())), events);
}

TEST_P(BinaryRoundTrip, ExtremeValues) {
  const auto events = extreme_events();
  EXPECT_EQ(decode(encode(events, options())), events);
}

TEST_P(BinaryRoundTrip, EmptyTrace) {
  const std::string bytes = encode({}, options());
  EXPECT_EQ(bytes.size(), kBinaryHeaderBytes + kBlockHeaderBytes + kEndPayloadBytes);
  EXPECT_TRUE(decode(bytes).empty());
}

TEST_P(BinaryRoundTrip, SymbolsOfEveryKind) {
  SymbolTable symbols;
  symbols.set(SymbolKind::Thread, 0, "main");
  symbols.set(SymbolKind::Thread, kU32Max, "");
  symbols.set(SymbolKind::SyncObject, kU64Max, std::string("\0\xff|\n", 4));
  symbols.set(SymbolKind::Location, 0, "x");
  symbols.set(SymbolKind::Location, kU64Max, std::string(kMaxNameBytes, 'n'));
  symbols.set(SymbolKind::SyncObject, 3, std::string(kMaxNameBytes, '\0'));
  symbols.set(SymbolKind::Thread, 0, "renamed");
  SymbolTable read;
  const auto events = every_op_and_order();
  EXPECT_EQ(decode(encode(events, options(), symbols), &read), events);
  ASSERT_EQ(read.entries().size(), symbols.entries().size());
  for (size_t i = 0; i < symbols.entries().size(); ++i) {
    EXPECT_EQ(read.entries()[i].kind, symbols.entries()[i].kind) << i;
    EXPECT_EQ(read.entries()[i].id, symbols.entries()[i].id) << i;
    EXPECT_EQ(read.entries()[i].name, symbols.entries()[i].name) << i;
  }
  EXPECT_EQ(read.thread_name(0), "renamed");
}

TEST_P(BinaryRoundTrip, ManySmallBlocks) {
  std::mt19937_64 rng(42);
  std::vector<Event> events(20000);
  for (Event& e : events) e = random_event(rng);
  BinaryWriterOptions small = options();
  small.block_bytes = 100;
  const std::string bytes = encode(events, small);
  EXPECT_GT(block_offsets(bytes).size(), 1000u);
  EXPECT_EQ(decode(bytes), events);
}

TEST_P(BinaryRoundTrip, OneRecordPerBlock) {
  BinaryWriterOptions tiny = options();
  tiny.block_bytes = 0;  // clamped: every record closes its block
  SymbolTable symbols;
  symbols.set(SymbolKind::Thread, 1, "t1");
  const auto events = extreme_events();
  const std::string bytes = encode(events, tiny, symbols);
  EXPECT_EQ(block_offsets(bytes).size(), events.size() + 2);  // + name block + end block
  EXPECT_EQ(decode(bytes), events);
}

INSTANTIATE_TEST_SUITE_P(Codec, BinaryRoundTrip, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& p) { return p.param ? "zstd" : "raw"; });

TEST(BinaryFormat, WriterBytesFollowTheSpecification) {
  std::ostringstream out;
  BinaryWriter writer(out, {.compress = false});
  SymbolTable symbols;
  symbols.set(SymbolKind::Thread, 1, "t1");
  writer.write(Event::read(1, 0x1000, 4, 7), symbols);
  writer.write(Event::atomic(Op::AtomicStore, 2, 0xff0, 8, MemoryOrder::Release, 5), symbols);
  writer.write(Event::sync(Op::Join, 1, 2, 9), symbols);
  writer.finish();
  const std::string payload = byte(0x80) + varint(1) + varint(2) + "t1" + read_record() + byte(11) + varint(2) +
                              zigzag_varint(0xff0 - 0x1000) + varint(8) + byte(3) + zigzag_varint(5 - 7) + byte(7) +
                              varint(1) + varint(2) + zigzag_varint(9 - 5);
  EXPECT_EQ(out.str(), file_header() + raw_block(payload, 4, 3) + end_block(3, 1));
}

TEST(BinaryFormat, CompressesOnlyWhenItHelps) {
  std::ostringstream out;
  BinaryWriter writer(out, {.compress = true, .block_bytes = 1 << 20});
  writer.write(Event::read(1, 0x1000, 4, 7), {});
  writer.finish();
  EXPECT_EQ(out.str()[kBinaryHeaderBytes + 5], char{kCodecRaw});  // 6 bytes do not shrink

  const std::vector<Event> same(10000, Event::write(1, 0x2000, 8, 3));
  const std::string bytes = encode(same);
  EXPECT_EQ(bytes[kBinaryHeaderBytes + 5], char{kCodecZstd});
  EXPECT_LT(bytes.size(), 1000u);
  EXPECT_EQ(decode(bytes), same);
}

TEST(BinaryFormat, NamesApplyWhenTheirRecordIsRead) {
  std::ostringstream out;
  BinaryWriter writer(out);
  SymbolTable symbols;
  symbols.set(SymbolKind::Thread, 1, "main");
  writer.write(Event::read(1, 0x10, 1), symbols);
  symbols.set(SymbolKind::Thread, 1, "worker");
  symbols.set(SymbolKind::SyncObject, 9, "mutex");
  writer.write(Event::sync(Op::Acquire, 1, 9), symbols);
  writer.finish();

  BinaryReader reader(Input::from_memory(out.str(), kName));
  Event e;
  ASSERT_TRUE(reader.next(e));
  EXPECT_EQ(reader.symbols().thread_name(1), "main");
  EXPECT_EQ(reader.symbols().find(SymbolKind::SyncObject, 9), nullptr);
  ASSERT_TRUE(reader.next(e));
  EXPECT_EQ(reader.symbols().thread_name(1), "worker");
  EXPECT_EQ(reader.symbols().sync_name(9), "mutex");
  EXPECT_FALSE(reader.next(e));
}

TEST(BinaryFormat, WriterRejectsWhatTheReaderWouldNot) {
  const std::vector<Event> invalid = {
      Event::read(1, 0x10, 0),
      Event::write(1, kU64Max, 2),
      Event::write(1, 0, kMaxAccessBytes + 1),
      Event::range(Op::Alloc, 1, 0, 0),
      Event::range(Op::Free, 1, 2, kU64Max),
      Event::atomic(Op::AtomicLoad, 1, 0x10, 0, MemoryOrder::Acquire),
      Event::atomic(Op::AtomicLoad, 1, 0x10, 4, static_cast<MemoryOrder>(6)),
      Event::fence(1, static_cast<MemoryOrder>(255)),
      Event::sync(Op::Fork, 1, uint64_t{1} << 32),
      Event::sync(Op::Join, 1, kU64Max),
      Event::sync(static_cast<Op>(kOpCount), 1, 0),
      Event::sync(static_cast<Op>(0x80), 1, 0),
      // Fields the format does not store must hold their defaults.
      Event::atomic(Op::Read, 1, 0x10, 4, MemoryOrder::SeqCst),
      Event{Op::Acquire, MemoryOrder::Relaxed, 1, 5, 1, 0},
      Event::fence(1, MemoryOrder::SeqCst) /* valid; paired with the next */,
  };
  std::ostringstream out;
  BinaryWriter writer(out);
  const SymbolTable none;
  for (size_t i = 0; i + 1 < invalid.size(); ++i) {
    EXPECT_THROW(writer.write(invalid[i], none), std::invalid_argument) << i;
  }
  EXPECT_THROW(writer.write(Event{Op::Begin, MemoryOrder::Relaxed, 1, 0x10, 0, 0}, none), std::invalid_argument);

  SymbolTable long_name;
  long_name.set(SymbolKind::Location, 1, std::string(kMaxNameBytes + 1, 'x'));
  EXPECT_THROW(writer.write(invalid.back(), long_name), UnrepresentableEvent);

  // Rejections leave the writer usable and the file free of them.
  writer.write(invalid.back(), none);
  writer.finish();
  EXPECT_EQ(decode(out.str()), std::vector<Event>{invalid.back()});
}

TEST(BinaryFormat, WriterMisuseAndStreamFailure) {
  std::ostringstream out;
  BinaryWriter writer(out);
  writer.finish();
  EXPECT_THROW(writer.write(Event::read(0, 1, 1), {}), std::logic_error);
  EXPECT_THROW(writer.finish(), std::logic_error);

  std::ostringstream broken;
  broken.setstate(std::ios::badbit);
  EXPECT_THROW(BinaryWriter{broken}, IoError);
  EXPECT_THROW((BinaryWriter{out, {.zstd_level = 1000}}), std::invalid_argument);
}

// ---- corruption --------------------------------------------------------------

std::string small_trace() {
  SymbolTable symbols;
  symbols.set(SymbolKind::Thread, 1, "main");
  std::vector<Event> events;
  for (int i = 0; i < 12; ++i) events.push_back(Event::write(1, 0x1000 + 8 * i, 8, i));
  return encode(events, {.compress = false, .block_bytes = 12}, symbols);
}

TEST(BinaryCorruption, FileHeader) {
  const std::string good = small_trace();
  std::string bad_magic = good;
  bad_magic[1] = 'X';
  expect_header_error(bad_magic, "bad magic");
  expect_header_error("T0|r(x)|1\n", "bad magic");
  expect_header_error(file_header(3) + good.substr(kBinaryHeaderBytes), "unsupported version 3");
  expect_header_error(file_header(0) + good.substr(kBinaryHeaderBytes), "unsupported version 0");
  expect_header_error(file_header(1, 1) + good.substr(kBinaryHeaderBytes), "unsupported flags");
  expect_header_error(file_header(1, 0, 7) + good.substr(kBinaryHeaderBytes), "reserved");
  expect_header_error("", "truncated file header");
  expect_header_error(good.substr(0, 10), "truncated file header");
}

TEST(BinaryCorruption, TruncatedAnywhereIsAnError) {
  const std::string good = small_trace();
  const auto blocks = block_offsets(good);
  ASSERT_GT(blocks.size(), 4u);
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const TraceError error = read_error(good.substr(0, cut));
    if (cut < kBinaryHeaderBytes) {
      EXPECT_EQ(error.where(), kName + ": header");
      continue;
    }
    size_t index = 0;
    while (index + 1 < blocks.size() && blocks[index + 1] <= cut) ++index;
    EXPECT_EQ(error.where(), block_where(index, blocks[index])) << "cut at " << cut;
  }
}

TEST(BinaryCorruption, TruncationKinds) {
  const std::string good = small_trace();
  const auto blocks = block_offsets(good);
  expect_block_error(good.substr(0, blocks[2] + 20), 2, blocks[2], "truncated block header (20 of 32");
  expect_block_error(good.substr(0, blocks[2] + kBlockHeaderBytes + 3), 2, blocks[2], "truncated payload (3 of");
  expect_block_error(good.substr(0, blocks.back()), blocks.size() - 1, blocks.back(), "without an end-of-trace block");
}

TEST(BinaryCorruption, FlippedPayloadByte) {
  const std::string good = small_trace();
  const auto blocks = block_offsets(good);
  std::string bad = good;
  bad[blocks[3] + kBlockHeaderBytes + 1] ^= 0x04;
  expect_block_error(bad, 3, blocks[3], "checksum mismatch");
}

TEST(BinaryCorruption, FlippedHeaderByte) {
  const std::string good = small_trace();
  const auto blocks = block_offsets(good);
  for (size_t i = 0; i < kBlockHeaderBytes; ++i) {
    for (uint8_t mask : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[blocks[1] + i] ^= mask;
      const TraceError error = read_error(bad);
      EXPECT_EQ(error.where(), block_where(1, blocks[1])) << "byte " << i << ": " << error.what();
    }
  }
}

TEST(BinaryCorruption, EveryBitFlipIsDetected) {
  for (bool compress : {false, true}) {
    std::vector<Event> events = every_op_and_order();
    SymbolTable symbols;
    symbols.set(SymbolKind::Location, 0x1000, "v");
    const std::string good = encode(events, {.compress = compress, .block_bytes = 64}, symbols);
    for (size_t i = 0; i < good.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string bad = good;
        bad[i] ^= static_cast<char>(1 << bit);
        const TraceError error = read_error(bad);
        EXPECT_EQ(std::string(error.where()).rfind(kName + ": ", 0), 0u) << error.what();
      }
    }
  }
}

TEST(BinaryCorruption, TrailingGarbage) {
  const std::string good = small_trace();
  const auto blocks = block_offsets(good);
  expect_block_error(good + "x", blocks.size(), good.size(), "after the end-of-trace block");
  expect_block_error(good + end_block(0, 0), blocks.size(), good.size(), "after the end-of-trace block");
}

TEST(BinaryCorruption, OversizeBlockSize) {
  const std::string header = file_header();
  for (bool stored : {true, false}) {
    BlockSpec spec{kBlockTypeEvents, kCodecRaw, 0, read_record(), 6, 1, 1};
    std::string bad = header + block(spec);
    std::string big;
    put_le<uint32_t>(big, kMaxBlockBytes + 1);
    bad.replace(kBinaryHeaderBytes + (stored ? 8 : 12), 4, big);
    expect_block_error(bad, 0, kBinaryHeaderBytes, "exceeds the limit");
  }
}

// Blocks with valid checksums whose content breaks a rule of the format.
struct BadPayload {
  const char* label;
  std::string payload;
  uint32_t records, events;
  std::string reason;
};

TEST(BinaryCorruption, MalformedRecordsInValidBlocks) {
  const std::string read = read_record();
  const std::vector<BadPayload> cases = {
      {"op 19", byte(19) + varint(1) + varint(0), 1, 1, "unknown record tag 0x13"},
      {"destroy size 0", byte(18) + varint(0) + zigzag_varint(8) + varint(0) + varint(0), 1, 1, "destroy of size 0"},
      {"tag 0x7f", byte(0x7f), 1, 1, "unknown record tag 0x7f"},
      {"name kind 3", byte(0x83) + varint(1) + varint(1) + "x", 1, 0, "unknown record tag 0x83"},
      {"tag 0xff", read + byte(0xff), 2, 1, "record 1 at payload offset 6: unknown record tag 0xff"},
      {"truncated tid varint", byte(0) + byte(0x80), 1, 1, "truncated"},
      {"truncated size varint", read.substr(0, 4) + byte(0x81), 1, 1, "truncated"},
      {"truncated after op", read + byte(1), 2, 2, "record 1 at payload offset 6: record is truncated"},
      {"truncated order", byte(10) + varint(0) + zigzag_varint(8) + varint(4), 1, 1, "truncated"},
      {"truncated name bytes", byte(0x80) + varint(1) + varint(5) + "abc", 1, 0, "name is truncated"},
      {"truncated name header", byte(0x82) + varint(1), 1, 0, "truncated"},
      {"11-byte varint", byte(0) + std::string(10, '\x80') + byte(0) + varint(0), 1, 1, "does not fit 64 bits"},
      {"10th varint byte > 1", byte(0) + std::string(9, '\xff') + byte(2) + varint(0), 1, 1, "does not fit 64 bits"},
      {"tid 2^32", byte(16) + varint(uint64_t{1} << 32) + varint(0), 1, 1, "thread id 4294967296"},
      {"fork 2^32", byte(6) + varint(0) + varint(uint64_t{1} << 32) + varint(0), 1, 1, "thread id 4294967296"},
      {"join 2^64-1", byte(7) + varint(0) + varint(kU64Max) + varint(0), 1, 1, "beyond 2^32-1"},
      {"order 6", byte(10) + varint(0) + zigzag_varint(8) + varint(4) + byte(6) + varint(0), 1, 1,
       "unknown memory order 6"},
      {"fence order 255", byte(13) + varint(0) + byte(255) + varint(0), 1, 1, "unknown memory order 255"},
      {"read size 0", byte(0) + varint(0) + zigzag_varint(8) + varint(0) + varint(0), 1, 1, "read of size 0"},
      {"alloc size 0", byte(14) + varint(0) + zigzag_varint(8) + varint(0) + varint(0), 1, 1, "alloc of size 0"},
      {"range wraps", byte(1) + varint(0) + zigzag_varint(kU64Max) + varint(2) + varint(0), 1, 1, "wraps"},
      {"access too long", byte(1) + varint(0) + zigzag_varint(8) + varint(kMaxAccessBytes + 1) + varint(0), 1, 1,
       "exceeds the limit of 16777216 bytes"},
      {"name too long", byte(0x80) + varint(1) + varint(kMaxNameBytes + 1) + std::string(kMaxNameBytes + 1, 'x'), 1, 0,
       "exceeds the limit of 4096"},
      {"too few records declared", read + read, 1, 1, "declares 1 records (1 events) but the payload holds 2"},
      {"too many records declared", read, 2, 1, "declares 2 records"},
      {"event count mismatch", read + byte(0x80) + varint(1) + varint(1) + "x", 2, 2, "(2 events)"},
  };
  for (const BadPayload& c : cases) {
    SCOPED_TRACE(c.label);
    expect_block_error(one_block_file(c.payload, c.records, c.events), 0, kBinaryHeaderBytes, c.reason);
  }
}

TEST(BinaryCorruption, EventsBeforeTheDamageAreNotLost) {
  // Damage in the second block: the first block's events come out, then the error.
  const std::string file =
      file_header() + raw_block(read_record(), 1, 1) + raw_block(byte(0x7f), 1, 1) + end_block(2, 2);
  BinaryReader reader(Input::from_memory(file, kName));
  Event e;
  ASSERT_TRUE(reader.next(e));
  EXPECT_EQ(e, Event::read(1, 0x1000, 4, 7));
  EXPECT_THROW(reader.next(e), TraceError);
}

TEST(BinaryCorruption, ReadingOnAfterAnErrorRepeatsIt) {
  // A caller that ignores the error must not get block 2 as if block 1 had been read.
  std::string damaged = raw_block(read_record(), 1, 1);
  damaged.back() ^= 1;
  const std::string file =
      file_header() + raw_block(read_record(), 1, 1) + damaged + raw_block(read_record(), 1, 1) + end_block(3, 3);
  const uint64_t at = kBinaryHeaderBytes + kBlockHeaderBytes + read_record().size();
  BinaryReader reader(Input::from_memory(file, kName));
  Event e;
  ASSERT_TRUE(reader.next(e));
  for (int attempt = 0; attempt < 3; ++attempt) {
    try {
      reader.next(e);
      ADD_FAILURE() << "no error on attempt " << attempt;
    } catch (const TraceError& error) {
      EXPECT_EQ(error.where(), block_where(1, at));
    }
  }
}

TEST(BinaryCorruption, MalformedBlocks) {
  const std::string read = read_record();
  const std::string header = file_header();
  const uint64_t at = kBinaryHeaderBytes;
  const auto n = static_cast<uint32_t>(read.size());
  auto with = [&](BlockSpec spec) { return header + block(spec) + end_block(spec.events, 1); };
  expect_block_error(with({3, kCodecRaw, 0, read, n, 1, 1}), 0, at, "unknown block type 3");
  expect_block_error(with({0, kCodecRaw, 0, read, n, 1, 1}), 0, at, "unknown block type 0");
  expect_block_error(with({kBlockTypeEvents, 2, 0, read, n, 1, 1}), 0, at, "unknown codec 2");
  expect_block_error(with({kBlockTypeEvents, kCodecRaw, 1, read, n, 1, 1}), 0, at, "reserved");
  expect_block_error(with({kBlockTypeEvents, kCodecRaw, 0, read, n + 1, 1, 1}), 0, at, "declares 7 uncompressed");

  std::string bad_magic = header + raw_block(read, 1, 1) + end_block(1, 1);
  bad_magic[at + 3] = 'L';
  expect_block_error(bad_magic, 0, at, "bad block magic");

  std::string compressed(ZSTD_compressBound(read.size()), '\0');
  compressed.resize(ZSTD_compress(compressed.data(), compressed.size(), read.data(), read.size(), 1));
  EXPECT_EQ(decode(with({kBlockTypeEvents, kCodecZstd, 0, compressed, n, 1, 1})).size(), 1u);
  expect_block_error(with({kBlockTypeEvents, kCodecZstd, 0, compressed, n + 1, 1, 1}), 0, at, "decompresses to 6");
  expect_block_error(with({kBlockTypeEvents, kCodecZstd, 0, compressed, n - 1, 1, 1}), 0, at,
                     "zstd decompression failed");
  expect_block_error(with({kBlockTypeEvents, kCodecZstd, 0, "not zstd", n, 1, 1}), 0, at, "zstd decompression failed");
}

TEST(BinaryCorruption, EndBlock) {
  const std::string events = file_header() + raw_block(read_record(), 1, 1);
  const uint64_t at = kBinaryHeaderBytes + kBlockHeaderBytes + read_record().size();
  expect_block_error(events + end_block(2, 1), 1, at, "end block counts 2 events, but the trace holds 1");
  expect_block_error(events + end_block(1, 0), 1, at, "end block counts 0 event blocks");
  std::string totals;
  put_le<uint64_t>(totals, 1);
  put_le<uint64_t>(totals, 1);
  expect_block_error(events + block({kBlockTypeEnd, kCodecRaw, 0, totals, 16, 1, 0}), 1, at, "malformed end block");
  expect_block_error(events + block({kBlockTypeEnd, kCodecRaw, 0, totals + "x", 17, 0, 0}), 1, at,
                     "malformed end block");
  expect_block_error(events + block({kBlockTypeEnd, kCodecZstd, 0, totals, 16, 0, 0}), 1, at, "malformed end block");
  EXPECT_EQ(decode(events + end_block(1, 1)).size(), 1u);
}

// ---- streaming -----------------------------------------------------------------

// Bytes currently allocated from the C heap (glibc), including large blocks
// served by mmap. A sanitizer's allocator is invisible to it, so under
// ASan the memory bound below holds trivially.
size_t heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// ---- version 2: program info (a runtime recording's site table etc.) ---------

ProgramInfo sample_program_info(size_t nodes) {
  ProgramInfo info;
  info.pid = 4242;
  info.runtime_module = "libraceaccel_rt.so";
  info.fd_table_base = 0x7f0000001000;
  info.fd_entry_bytes = 16;
  info.fd_count = 8192;
  info.modules = {{"/bin/prog", std::string("\x01\x02\xff", 3), 0x555500000000, 0x555500005000},
                  {"/lib/libc.so.6", "", 0x7f1000000000, 0x7f1000200000}};
  info.nodes.push_back({});
  for (size_t i = 1; i <= nodes; ++i) info.nodes.push_back({static_cast<uint32_t>(i / 2), 0x7fff00000000 + i * 977});
  info.codes = {{0x555500001234, pack_size_kind(4, AccessKind::Write)},
                {0x555500001240, pack_size_kind(1, AccessKind::Alloc)}};
  ProgramThread main_thread;
  main_thread.os_tid = 4242;
  main_thread.stack_lo = 0x7ffc00000000;
  main_thread.stack_hi = 0x7ffc00100000;
  ProgramThread worker;
  worker.tid = 1;
  worker.create_stack = {0x555500001300, 0x7f1000001000};
  worker.os_tid = 4243;
  worker.name = "worker";
  worker.finished_at = 17;
  info.threads = {main_thread, worker};
  info.benign = {{0x1000, 8, 3}};
  return info;
}

void expect_same_info(const ProgramInfo& a, const ProgramInfo& b) {
  EXPECT_EQ(a.pid, b.pid);
  EXPECT_EQ(a.runtime_module, b.runtime_module);
  EXPECT_EQ(a.fd_table_base, b.fd_table_base);
  EXPECT_EQ(a.fd_entry_bytes, b.fd_entry_bytes);
  EXPECT_EQ(a.fd_count, b.fd_count);
  ASSERT_EQ(a.modules.size(), b.modules.size());
  for (size_t i = 0; i < a.modules.size(); ++i) {
    EXPECT_EQ(a.modules[i].path, b.modules[i].path);
    EXPECT_EQ(a.modules[i].build_id, b.modules[i].build_id);
    EXPECT_EQ(a.modules[i].low, b.modules[i].low);
    EXPECT_EQ(a.modules[i].high, b.modules[i].high);
  }
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].parent, b.nodes[i].parent);
    EXPECT_EQ(a.nodes[i].pc, b.nodes[i].pc);
  }
  ASSERT_EQ(a.codes.size(), b.codes.size());
  for (size_t i = 0; i < a.codes.size(); ++i) {
    EXPECT_EQ(a.codes[i].pc, b.codes[i].pc);
    EXPECT_EQ(a.codes[i].size_kind, b.codes[i].size_kind);
  }
  ASSERT_EQ(a.threads.size(), b.threads.size());
  for (size_t i = 0; i < a.threads.size(); ++i) {
    EXPECT_EQ(a.threads[i].tid, b.threads[i].tid);
    EXPECT_EQ(a.threads[i].create_stack, b.threads[i].create_stack);
    EXPECT_EQ(a.threads[i].os_tid, b.threads[i].os_tid);
    EXPECT_EQ(a.threads[i].name, b.threads[i].name);
    EXPECT_EQ(a.threads[i].stack_hi, b.threads[i].stack_hi);
    EXPECT_EQ(a.threads[i].finished_at, b.threads[i].finished_at);
  }
  ASSERT_EQ(a.benign.size(), b.benign.size());
  EXPECT_EQ(a.benign[0].from_event, b.benign[0].from_event);
}

std::string encode_with_info(const std::vector<Event>& events, const ProgramInfo& info, bool compress) {
  std::ostringstream out;
  BinaryWriter writer(out, {.compress = compress, .program_info = true});
  for (const Event& e : events) writer.write(e, {});
  writer.write_program_info(info);
  writer.finish();
  return out.str();
}

TEST(BinaryProgramInfo, RoundTripsAfterTheEvents) {
  const std::vector<Event> events = {Event::write(1, 0x1000, 4, 7), Event::read(0, 0x1000, 4, 9)};
  for (const bool compress : {false, true}) {
    // 400 K nodes: more than one program-info block (kProgramInfoChunkBytes).
    for (const size_t nodes : {size_t{3}, size_t{400000}}) {
      const ProgramInfo info = sample_program_info(nodes);
      const std::string bytes = encode_with_info(events, info, compress);
      EXPECT_EQ(bytes[8], 2);  // version 2
      BinaryReader reader(Input::from_memory(bytes, kName));
      std::vector<Event> read;
      Event e;
      while (reader.next(e)) read.push_back(e);
      EXPECT_EQ(read, events);
      ASSERT_NE(reader.program_info(), nullptr);
      expect_same_info(*reader.program_info(), info);
    }
  }
}

// Traces without program info stay version 1, byte for byte what they were.
TEST(BinaryProgramInfo, VersionOneTracesHaveNone) {
  const std::string bytes = encode({Event::write(1, 0x1000, 4, 7)});
  EXPECT_EQ(bytes[8], 1);
  BinaryReader reader(Input::from_memory(bytes, kName));
  Event e;
  while (reader.next(e)) {
  }
  EXPECT_EQ(reader.program_info(), nullptr);
  std::ostringstream out;
  BinaryWriter writer(out);
  EXPECT_THROW(writer.write_program_info(sample_program_info(1)), std::logic_error);
}

TEST(BinaryProgramInfo, DamagedProgramInfoIsAnError) {
  const std::string read = read_record();
  const auto n = static_cast<uint32_t>(read.size());
  const std::string events = file_header(2) + raw_block(read, 1, 1);
  const uint64_t info_at = kBinaryHeaderBytes + kBlockHeaderBytes + read.size();
  auto info_block = [](const std::string& payload, uint32_t records) {
    return block({kBlockTypeProgramInfo, kCodecRaw, 0, payload, static_cast<uint32_t>(payload.size()), records, 0});
  };
  const std::vector<uint8_t> good = encode_program_info(sample_program_info(2));
  const std::string good_payload(good.begin(), good.end());
  const uint64_t end_at = info_at + kBlockHeaderBytes + good_payload.size();
  EXPECT_EQ(decode(events + info_block(good_payload, 0) + end_block(1, 1)).size(), 1u);
  expect_block_error(events + info_block(good_payload, 1) + end_block(1, 1), 1, info_at,
                     "program-info block declares 1 records");
  expect_block_error(events + info_block(byte(0x7f) + good_payload, 0) + end_block(1, 1), 2, end_at + 1,
                     "program info at offset 1: unknown record tag 0x7f");
  expect_block_error(events + info_block(good_payload.substr(0, good_payload.size() - 1), 0) + end_block(1, 1), 2,
                     end_at - 1, "record is truncated");
  // A version-1 file has no such blocks.
  expect_block_error(file_header(1) + raw_block(read, 1, 1) + info_block(good_payload, 0) + end_block(1, 1), 1, info_at,
                     "unknown block type 3");
  (void)n;
}

TEST(BinaryStreaming, ReadsOneBlockAtATime) {
  const std::string path = testing::TempDir() + "raceaccel_binary_streaming.rtrace";
  constexpr uint64_t kEvents = 3'000'000;
  {
    std::ofstream file(path, std::ios::binary);
    BinaryWriter writer(file, {.compress = false, .block_bytes = 16 * 1024});
    const SymbolTable none;
    for (uint64_t i = 0; i < kEvents; ++i) {
      const uint64_t addr = 0x7f0000000000 + ((i * 0x9E3779B97F4A7C15) >> 40);  // scattered: ~8-byte records
      writer.write(Event::write(static_cast<ThreadId>(i % 8), addr, 8, i), none);
    }
    writer.finish();
  }
  std::ifstream probe(path, std::ios::binary | std::ios::ate);
  const auto file_bytes = static_cast<size_t>(probe.tellg());
  constexpr size_t kBound = 2 << 20;  // Input's 1 MiB read buffer, one block, slack
  ASSERT_GT(file_bytes, 5 * kBound);

  Input input = Input::open(path);
  const size_t baseline = heap_in_use();
  size_t peak = baseline;
  BinaryReader reader(std::move(input));
  Event e;
  uint64_t count = 0;
  while (reader.next(e)) {
    if (++count % 1024 == 0) peak = std::max(peak, heap_in_use());
  }
  peak = std::max(peak, heap_in_use());
  EXPECT_EQ(count, kEvents);
  EXPECT_EQ(reader.bytes_read(), file_bytes);
  EXPECT_LT(peak - baseline, kBound) << "file of " << file_bytes << " bytes";
  std::remove(path.c_str());
}

}  // namespace
}  // namespace raceaccel
