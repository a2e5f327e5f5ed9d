// libFuzzer target for StdReader. A TraceError is the expected outcome for
// malformed input; any other exception, a crash or a sanitizer report is a
// finding.
//
// A trace the reader accepts is also converted to the binary format and read
// back, which must give the same events: every STD event is representable in
// binary (names longer than the binary limit excepted, which the writer
// reports as UnrepresentableEvent), and FastTrack and DJIT+ must agree on it.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "fuzz_detectors.hpp"
#include "trace/binary_format.hpp"
#include "trace/input.hpp"
#include "trace/std_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

void check(std::string_view bytes) {
  std::ostringstream binary;
  try {
    StdReader reader(Input::from_memory(bytes, "fuzz.std"));
    BinaryWriter writer(binary, {.compress = false, .block_bytes = 1024});
    Event e;
    while (reader.next(e)) writer.write(e, reader.symbols());
    writer.finish();
  } catch (const TraceError&) {
    return;
  } catch (const UnrepresentableEvent&) {
    return;
  }
  StdReader original(Input::from_memory(bytes, "fuzz.std"));
  BinaryReader converted(Input::from_memory(binary.str(), "fuzz.rtrace"));
  Event a, b;
  std::vector<Event> events;
  for (;;) {
    const bool more = original.next(a);
    if (more != converted.next(b) || (more && !(a == b))) std::abort();
    if (!more) break;
    events.push_back(a);
  }
  check_detectors_agree(events);
}

}  // namespace
}  // namespace raceaccel

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  raceaccel::check(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
