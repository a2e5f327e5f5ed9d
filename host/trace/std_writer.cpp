#include <fmt/format.h>
#include <fmt/ostream.h>

#include "trace/std_format.hpp"

namespace raceaccel {
void StdWriter::write(const Event& e, const SymbolTable& symbols) {
  auto checked = [&](std::string name) {
    if (!std_name_ok(name)) {
      throw UnrepresentableEvent(
          fmt::format("event {}: the name '{}' cannot be written in STD (empty, or contains '|', '(', ')', blanks or "
                      "control characters)",
                      index_, name));
    }
    return name;
  };
  if (targets_thread(e.op) && e.addr > UINT32_MAX) {
    throw UnrepresentableEvent(fmt::format("event {}: thread id out of range", index_));
  }
  const std::string thread = checked(symbols.thread_name(e.tid));
  auto location = [&]() -> std::string {
    if (e.size == 1) {
      if (const auto* name = symbols.find(SymbolKind::Location, e.addr)) {
        // A symbolic name starting with '@' would read back as an address access.
        if (!name->empty() && name->front() == '@') {
          throw UnrepresentableEvent(
              fmt::format("event {}: the variable name '{}' would read back as an address", index_, *name));
        }
        return checked(*name);
      }
    }
    return fmt::format("@{:#x}:{}", e.addr, e.size);
  };
  std::string action;
  switch (e.op) {
    case Op::Read: action = fmt::format("r({})", location()); break;
    case Op::Write: action = fmt::format("w({})", location()); break;
    case Op::Acquire: action = fmt::format("acq({})", checked(symbols.sync_name(e.addr))); break;
    case Op::Release: action = fmt::format("rel({})", checked(symbols.sync_name(e.addr))); break;
    case Op::Fork: action = fmt::format("fork({})", checked(symbols.thread_name(static_cast<ThreadId>(e.addr)))); break;
    case Op::Join: action = fmt::format("join({})", checked(symbols.thread_name(static_cast<ThreadId>(e.addr)))); break;
    case Op::Begin: action = "begin()"; break;
    case Op::End: action = "end()"; break;
    default:
      throw UnrepresentableEvent(fmt::format(
          "event {} ({}) has no STD equivalent; convert to the binary format instead", index_, op_name(e.op)));
  }
  out_ << thread << '|' << action << '|' << e.site << '\n';
  ++index_;
}

void StdWriter::finish() { out_.flush(); }

}  // namespace raceaccel
