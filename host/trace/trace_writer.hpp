// Streaming output of a trace in one of the formats.
#pragma once

#include <memory>
#include <string>

#include "core/event.hpp"
#include "core/symbols.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {

class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  // Writes one event. `symbols` holds at least the names of the ids the event
  // uses; writers emit entries they have not written yet.
  virtual void write(const Event& event, const SymbolTable& symbols) = 0;
  // Flushes and writes any trailer. Must be called once at the end.
  virtual void finish() = 0;
};

// Thrown when an event has no exact representation in the target format.
class UnrepresentableEvent : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace raceaccel
