// The racy bytes a run printed with verbosity=3 ("raceaccel: racy bytes:
// 0xADDR+SIZE ..."), and those the golden detector finds in a recording of
// it, as sets of byte addresses, for the differential tests.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>

#include "process_runner.hpp"

namespace raceaccel::test {

using ByteSet = std::set<uint64_t>;

inline void add_range(ByteSet& bytes, uint64_t addr, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) bytes.insert(addr + i);
}

// The bytes of the runtime's racy-bytes line in err (a failure if there is none).
inline ByteSet live_racy_bytes(const std::string& err) {
  static const std::string kPrefix = "raceaccel: racy bytes:";
  const size_t at = err.find(kPrefix);
  EXPECT_NE(at, std::string::npos) << err;
  ByteSet bytes;
  if (at == std::string::npos) return bytes;
  std::istringstream line(err.substr(at + kPrefix.size(), err.find('\n', at) - at - kPrefix.size()));
  for (std::string token; line >> token;) {
    const size_t plus = token.find('+');
    add_range(bytes, std::stoull(token.substr(0, plus), nullptr, 16), std::stoull(token.substr(plus + 1)));
  }
  return bytes;
}

// The bytes DJIT+ (the golden detector) finds racy in a recorded trace,
// checked with the CLI at cli.
inline ByteSet golden_racy_bytes(const std::string& cli, const std::string& trace) {
  const ProcessResult check = run_process({cli, "check", "--json", "--detector", "djit", trace});
  EXPECT_TRUE(check.status == 0 || check.status == 66) << check.err;
  ByteSet bytes;
  const auto doc = nlohmann::json::parse(check.out, nullptr, false);
  if (doc.is_discarded()) {
    ADD_FAILURE() << "check --json printed no JSON: " << check.out << check.err;
    return bytes;
  }
  for (const auto& race : doc["races"]) {
    add_range(bytes, std::stoull(race["address"].get<std::string>(), nullptr, 16), race["size"].get<uint64_t>());
  }
  return bytes;
}

// The bytes of a that are not in b, as text (for failure messages).
inline std::string difference(const ByteSet& a, const ByteSet& b) {
  std::string out;
  for (const uint64_t x : a)
    if (!b.contains(x)) out += " " + std::to_string(x);
  return out;
}

}  // namespace raceaccel::test
