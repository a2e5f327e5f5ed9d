#include <fmt/format.h>
#include <charconv>

#include "trace/std_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool parse_u64(std::string_view s, uint64_t& out, int base = 10) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 60)) {
    auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? std::string(1, c) : fmt::format("\\x{:02x}", u);
  }
  if (s.size() > 60) out += "...";
  return out;
}

}  // namespace

StdReader::StdReader(Input input) : input_(std::move(input)) {}

void StdReader::fail(const std::string& reason) const {
  throw TraceError(fmt::format("{}:{}", input_.name(), line_no_), reason);
}

ThreadId StdReader::intern_thread(std::string_view name) {
  auto [it, inserted] = threads_.try_emplace(std::string(name), static_cast<ThreadId>(threads_.size()));
  if (inserted) symbols_.set(SymbolKind::Thread, it->second, it->first);
  return it->second;
}

uint64_t StdReader::intern_lock(std::string_view name) {
  auto [it, inserted] = locks_.try_emplace(std::string(name), locks_.size());
  if (inserted) symbols_.set(SymbolKind::SyncObject, it->second, it->first);
  return it->second;
}

uint64_t StdReader::intern_variable(std::string_view name) {
  auto [it, inserted] = variables_.try_emplace(std::string(name), kStdVariableBase + variables_.size());
  if (inserted) symbols_.set(SymbolKind::Location, it->second, it->first);
  return it->second;
}

bool StdReader::next(Event& event) {
  while (input_.read_line(line_, kMaxStdLineBytes)) {
    ++line_no_;
    if (line_.size() > kMaxStdLineBytes) {
      fail(fmt::format("line longer than {} bytes (the STD line limit), starting '{}'", kMaxStdLineBytes,
                       printable(line_)));
    }
    std::string_view line = trim(line_);
    if (line.empty()) continue;  // blank lines are not events
    parse_line(line, event);
    return true;
  }
  return false;
}

void StdReader::parse_line(std::string_view line, Event& event) {
  const size_t bar1 = line.find('|');
  const size_t bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
  if (bar2 == std::string_view::npos || line.find('|', bar2 + 1) != std::string_view::npos) {
    fail(fmt::format("expected THREAD|OP(DECOR)|LOC with exactly three '|'-separated fields, got '{}'",
                     printable(line)));
  }
  const std::string_view thread = trim(line.substr(0, bar1));
  const std::string_view action = trim(line.substr(bar1 + 1, bar2 - bar1 - 1));
  const std::string_view loc = trim(line.substr(bar2 + 1));

  if (!std_name_ok(thread)) fail(fmt::format("bad thread name '{}'", printable(thread)));
  uint64_t site = 0;
  if (!parse_u64(loc, site)) fail(fmt::format("location '{}' is not a non-negative integer", printable(loc)));

  std::string_view op = action, decor;
  bool has_parens = false;
  if (const size_t open = action.find('('); open != std::string_view::npos) {
    if (action.back() != ')') fail(fmt::format("operation '{}' lacks a closing ')'", printable(action)));
    op = action.substr(0, open);
    decor = action.substr(open + 1, action.size() - open - 2);
    has_parens = true;
    if (decor.find_first_of("()") != std::string_view::npos)
      fail(fmt::format("nested parentheses in '{}'", printable(action)));
  }

  event = Event{};
  event.site = site;
  event.tid = intern_thread(thread);

  auto need_decor = [&](const char* what) {
    if (!has_parens || decor.empty())
      fail(fmt::format("operation '{}' needs a {} in parentheses", printable(op), what));
    if (!std_name_ok(decor)) fail(fmt::format("bad {} name '{}'", what, printable(decor)));
  };

  if (op == "r" || op == "w") {
    need_decor("variable");
    event.op = op == "r" ? Op::Read : Op::Write;
    if (decor.front() == '@') {
      const size_t colon = decor.find(':');
      uint64_t addr = 0, size = 0;
      if (colon == std::string_view::npos || decor.substr(1, 2) != "0x" ||
          !parse_u64(decor.substr(3, colon - 3), addr, 16) || !parse_u64(decor.substr(colon + 1), size)) {
        fail(fmt::format("address access '{}' is not of the form @0x<hex>:<size>", printable(decor)));
      }
      if (!valid_range(event.op, addr, size)) fail(range_problem(event.op, addr, size));
      event.addr = addr;
      event.size = size;
    } else {
      event.addr = intern_variable(decor);
      event.size = 1;
    }
  } else if (op == "acq" || op == "rel") {
    need_decor("lock");
    event.op = op == "acq" ? Op::Acquire : Op::Release;
    event.addr = intern_lock(decor);
  } else if (op == "fork" || op == "join") {
    need_decor("thread");
    event.op = op == "fork" ? Op::Fork : Op::Join;
    event.addr = intern_thread(decor);
    if (event.addr == event.tid) fail(fmt::format("thread '{}' cannot {} itself", printable(thread), op));
  } else if (op == "begin" || op == "end") {
    if (!decor.empty()) fail(fmt::format("'{}' takes no decor", op));
    event.op = op == "begin" ? Op::Begin : Op::End;
  } else {
    fail(fmt::format("unknown operation '{}' (expected r, w, acq, rel, fork, join, begin or end)", printable(op)));
  }
}

}  // namespace raceaccel
