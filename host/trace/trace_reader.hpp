// Streaming access to a trace, whatever its format. Readers never hold the
// whole trace; they throw TraceError on malformed input, naming the place.
#pragma once

#include <memory>
#include <string>

#include "core/event.hpp"
#include "core/symbols.hpp"

namespace raceaccel {

class Input;
struct ProgramInfo;

enum class TraceFormat { Std, Binary };

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // Next event, or false at the end of the trace.
  virtual bool next(Event& event) = 0;
  // Names seen so far; grows while reading, complete once next() returned false.
  virtual const SymbolTable& symbols() const = 0;
  virtual TraceFormat format() const = 0;
  // Bytes consumed so far (progress reporting).
  virtual uint64_t bytes_read() const = 0;
  // What a runtime recording carries for symbolized reports (program_info.hpp);
  // null for traces without it. Complete once next() returned false.
  virtual const ProgramInfo* program_info() const { return nullptr; }
};

// Opens a trace file ("-" for stdin) and picks the reader by sniffing the
// first bytes: the binary magic selects the binary reader, anything else is
// read as STD text.
std::unique_ptr<TraceReader> open_trace(const std::string& path);
std::unique_ptr<TraceReader> open_trace(Input input);

}  // namespace raceaccel
