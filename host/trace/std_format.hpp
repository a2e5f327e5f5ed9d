// RAPID's STD text format: one event per line, `THREAD|OP(DECOR)|LOC`.
//
//   T0|r(V123)|345      read of variable V123 at location 345
//   T2|acq(L34)|120     acquire of lock L34
//   T0|fork(T2)|123     T0 forks T2
//
// OP is one of r, w, acq, rel, fork, join, begin, end; begin/end take no
// decor ("begin" or "begin()"). LOC is a non-negative integer and becomes the
// event's site. Thread, lock and variable names are interned in order of
// first appearance; threads need not be forked before they appear.
//
// Extension (exact round trips of address traces): a variable decor of the
// form `@0x<hex>:<size>` is a byte-range access, e.g. `T1|w(@0x1000:4)|7`.
// Other decors are symbolic variables, each its own 1-byte location at a
// synthetic address kStdVariableBase + n (see docs/trace-formats.md).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>

#include "trace/input.hpp"
#include "trace/trace_reader.hpp"
#include "trace/trace_writer.hpp"

namespace raceaccel {

inline constexpr uint64_t kStdVariableBase = 0xF000'0000'0000'0000ULL;

// The longest STD line the reader takes, '\n' excluded (1 MiB). A real line
// is a few dozen bytes; without a cap a file without newlines (/dev/zero)
// would be buffered whole. Longer lines are malformed (exit 65, file:line).
inline constexpr size_t kMaxStdLineBytes = size_t{1} << 20;

// A thread, lock or variable name the reader takes as one field: not empty,
// no '|', '(', ')', blanks or control characters.
inline bool std_name_ok(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == '|' || c == '(' || c == ')' || c == ' ' || c == '\t' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

class StdReader final : public TraceReader {
 public:
  explicit StdReader(Input input);
  bool next(Event& event) override;
  const SymbolTable& symbols() const override { return symbols_; }
  TraceFormat format() const override { return TraceFormat::Std; }
  uint64_t bytes_read() const override { return input_.offset(); }

 private:
  [[noreturn]] void fail(const std::string& reason) const;
  ThreadId intern_thread(std::string_view name);
  uint64_t intern_lock(std::string_view name);
  uint64_t intern_variable(std::string_view name);
  void parse_line(std::string_view line, Event& event);

  Input input_;
  SymbolTable symbols_;
  std::string line_;
  uint64_t line_no_ = 0;
  std::unordered_map<std::string, ThreadId> threads_;
  std::unordered_map<std::string, uint64_t> locks_;
  std::unordered_map<std::string, uint64_t> variables_;
};

class StdWriter final : public TraceWriter {
 public:
  explicit StdWriter(std::ostream& out) : out_(out) {}
  void write(const Event& event, const SymbolTable& symbols) override;
  void finish() override;

 private:
  std::ostream& out_;
  uint64_t index_ = 0;
};

}  // namespace raceaccel
