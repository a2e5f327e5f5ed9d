// libFuzzer target for BinaryReader. A TraceError is the expected outcome for
// damaged input; any other exception, a crash or a sanitizer report is a
// finding.
//
// Random mutations almost never keep a block checksum valid, which would
// leave the record decoder behind the checksum unexplored. So each input is
// read twice: as given, and with every block checksum recomputed. Whatever the
// reader accepts must also survive a round trip through BinaryWriter: the
// writer must accept every event the reader produces, and the copy must read
// back as the same events and names.
#include <xxhash.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_detectors.hpp"
#include "trace/binary_format.hpp"
#include "trace/input.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

uint32_t load_u32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

std::string with_valid_checksums(std::string_view input) {
  std::string bytes(input);
  size_t at = kBinaryHeaderBytes;
  while (at + kBlockHeaderBytes <= bytes.size()) {
    char* header = bytes.data() + at;
    const uint32_t stored = load_u32(header + 8);
    if (stored > bytes.size() - at - kBlockHeaderBytes) break;
    const uint64_t seed = XXH64(header, kBlockChecksumOffset, 0);
    const uint64_t sum = XXH64(header + kBlockHeaderBytes, stored, seed);
    for (int i = 0; i < 8; ++i) header[kBlockChecksumOffset + i] = static_cast<char>(sum >> (8 * i));
    at += kBlockHeaderBytes + stored;
  }
  return bytes;
}

bool same_symbols(const Symbol& a, const Symbol& b) { return a.kind == b.kind && a.id == b.id && a.name == b.name; }

void check(std::string_view bytes, bool compress) {
  std::ostringstream copy;
  try {
    BinaryReader reader(Input::from_memory(bytes, "fuzz.rtrace"));
    BinaryWriter writer(copy, {.compress = compress, .block_bytes = 1024});
    Event e;
    while (reader.next(e)) writer.write(e, reader.symbols());
    writer.finish();
  } catch (const TraceError&) {
    return;
  }
  // The input read cleanly: the copy must match it event for event. It holds
  // the names read up to the last event, a prefix of all names read.
  BinaryReader original(Input::from_memory(bytes, "fuzz.rtrace"));
  BinaryReader reread(Input::from_memory(copy.str(), "copy.rtrace"));
  Event a, b;
  std::vector<Event> events;
  for (;;) {
    const bool more = original.next(a);
    if (more != reread.next(b) || (more && !(a == b))) std::abort();
    if (!more) break;
    events.push_back(a);
  }
  check_detectors_agree(events);
  const auto& all = original.symbols().entries();
  const auto& copied = reread.symbols().entries();
  if (copied.size() > all.size()) std::abort();
  for (size_t i = 0; i < copied.size(); ++i) {
    if (!same_symbols(all[i], copied[i])) std::abort();
  }
}

}  // namespace
}  // namespace raceaccel

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const bool compress = size % 2 == 1;  // exercise both writer codecs across inputs
  raceaccel::check(bytes, compress);
  raceaccel::check(raceaccel::with_valid_checksums(bytes), compress);
  return 0;
}
