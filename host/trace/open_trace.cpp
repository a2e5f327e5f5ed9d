#include "trace/binary_format.hpp"
#include "trace/input.hpp"
#include "trace/std_format.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {

std::unique_ptr<TraceReader> open_trace(Input input) {
  if (input.peek(kBinaryMagic.size()) == kBinaryMagic) return std::make_unique<BinaryReader>(std::move(input));
  return std::make_unique<StdReader>(std::move(input));
}

std::unique_ptr<TraceReader> open_trace(const std::string& path) { return open_trace(Input::open(path)); }

}  // namespace raceaccel
