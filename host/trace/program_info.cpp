#include "trace/program_info.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace raceaccel {
namespace {

// Record tags of a program-info payload (docs/trace-formats.md).
enum Tag : uint8_t { kProcess = 1, kModule = 2, kNode = 3, kCode = 4, kThread = 5, kBenign = 6 };

// Longest string a record may hold: paths, names and build-ids are short.
constexpr uint64_t kMaxString = 1 << 16;
// Longest creation stack kept per thread.
constexpr uint64_t kMaxCreateFrames = 1 << 12;

class Encoder {
 public:
  void byte(uint8_t b) { out_.push_back(b); }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<uint8_t>(v) | 0x80);
      v >>= 7;
    }
    out_.push_back(static_cast<uint8_t>(v));
  }
  void string(const std::string& s) {
    varint(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

// Bounds-checked: program info is read once per trace, not per event.
class Decoder {
 public:
  Decoder(const uint8_t* data, size_t size) : p_(data), begin_(data), end_(data + size) {}
  bool done() const { return p_ == end_; }
  size_t offset() const { return static_cast<size_t>(p_ - begin_); }
  uint8_t byte() {
    if (p_ == end_) fail("record is truncated");
    return *p_++;
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      const uint8_t b = byte();
      if (shift == 63 && b > 1) fail("varint does not fit 64 bits");
      v |= uint64_t{b & 0x7fu} << shift;
      if (b < 0x80) return v;
    }
    fail("varint does not fit 64 bits");
  }
  uint32_t varint32(const char* what) {
    const uint64_t v = varint();
    if (v > UINT32_MAX) fail(fmt::format("{} {} does not fit 32 bits", what, v));
    return static_cast<uint32_t>(v);
  }
  std::string string() {
    const uint64_t n = varint();
    if (n > kMaxString) fail(fmt::format("string of {} bytes exceeds the limit of {}", n, kMaxString));
    if (n > static_cast<uint64_t>(end_ - p_)) fail("string is truncated");
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(fmt::format("program info at offset {}: {}", offset(), why));
  }

 private:
  const uint8_t* p_;
  const uint8_t* begin_;
  const uint8_t* end_;
};

}  // namespace

std::vector<uint8_t> encode_program_info(const ProgramInfo& info) {
  Encoder e;
  e.byte(kProcess);
  e.varint(static_cast<uint64_t>(info.pid));
  e.string(info.runtime_module);
  e.varint(info.fd_table_base);
  e.varint(info.fd_entry_bytes);
  e.varint(info.fd_count);
  for (const ProgramModule& m : info.modules) {
    e.byte(kModule);
    e.string(m.path);
    e.string(m.build_id);
    e.varint(m.low);
    e.varint(m.high);
  }
  for (size_t i = 1; i < info.nodes.size(); ++i) {  // the root is implied
    e.byte(kNode);
    e.varint(info.nodes[i].parent);
    e.varint(info.nodes[i].pc);
  }
  for (const CodeSite& c : info.codes) {
    e.byte(kCode);
    e.varint(c.pc);
    e.varint(c.size_kind);
  }
  for (const ProgramThread& t : info.threads) {
    e.byte(kThread);
    e.varint(t.tid);
    e.varint(t.parent);
    e.varint(static_cast<uint64_t>(t.os_tid));
    e.string(t.name);
    e.varint(t.stack_lo);
    e.varint(t.stack_hi);
    e.varint(t.tls_lo);
    e.varint(t.tls_hi);
    e.varint(t.finished_at);
    const size_t frames = std::min<size_t>(t.create_stack.size(), kMaxCreateFrames);
    e.varint(frames);
    for (size_t i = 0; i < frames; ++i) e.varint(t.create_stack[i]);
  }
  for (const BenignRange& b : info.benign) {
    e.byte(kBenign);
    e.varint(b.addr);
    e.varint(b.size);
    e.varint(b.from_event);
  }
  return e.take();
}

ProgramInfo decode_program_info(const uint8_t* data, size_t size) {
  ProgramInfo info;
  info.nodes.push_back({});  // the root
  Decoder d(data, size);
  bool process_seen = false;
  while (!d.done()) {
    const uint8_t tag = d.byte();
    switch (tag) {
      case kProcess:
        info.pid = static_cast<int64_t>(d.varint());
        info.runtime_module = d.string();
        info.fd_table_base = d.varint();
        info.fd_entry_bytes = d.varint();
        info.fd_count = d.varint();
        process_seen = true;
        break;
      case kModule: {
        ProgramModule m;
        m.path = d.string();
        m.build_id = d.string();
        m.low = d.varint();
        m.high = d.varint();
        info.modules.push_back(std::move(m));
        break;
      }
      case kNode: {
        StackNode n;
        n.parent = d.varint32("node parent");
        n.pc = d.varint();
        if (n.parent >= info.nodes.size()) d.fail(fmt::format("node parent {} is not an earlier node", n.parent));
        info.nodes.push_back(n);
        break;
      }
      case kCode: {
        CodeSite c;
        c.pc = d.varint();
        c.size_kind = d.varint32("size and kind");
        if (info.codes.size() >= kMaxSiteCodes) d.fail("more code sites than site ids can name");
        info.codes.push_back(c);
        break;
      }
      case kThread: {
        ProgramThread t;
        t.tid = d.varint32("thread id");
        t.parent = d.varint32("parent thread id");
        t.os_tid = static_cast<int64_t>(d.varint());
        t.name = d.string();
        t.stack_lo = d.varint();
        t.stack_hi = d.varint();
        t.tls_lo = d.varint();
        t.tls_hi = d.varint();
        t.finished_at = d.varint();
        const uint64_t frames = d.varint();
        if (frames > kMaxCreateFrames) d.fail(fmt::format("creation stack of {} frames", frames));
        for (uint64_t i = 0; i < frames; ++i) t.create_stack.push_back(d.varint());
        info.threads.push_back(std::move(t));
        break;
      }
      case kBenign: {
        BenignRange b;
        b.addr = d.varint();
        b.size = d.varint();
        b.from_event = d.varint();
        info.benign.push_back(b);
        break;
      }
      default: d.fail(fmt::format("unknown record tag {:#04x}", tag));
    }
  }
  if (!process_seen) d.fail("no process record");
  return info;
}

}  // namespace raceaccel
