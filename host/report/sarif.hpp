// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) logs of race
// reports, shared by `raceaccel check --sarif` and the runtime's `sarif=`
// option (docs/reports.md, "SARIF"). Both fill the same plain description of
// a race; this file turns it into one SARIF result: the racing access as the
// result's location, the earlier access and (for heap memory) the allocation
// as related locations, their stacks, a code flow with one thread flow per
// access, and a fingerprint that stays the same across runs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace raceaccel {

struct SarifFrame {
  std::string function;  // empty when unknown
  std::string file;      // source path; empty without line information
  uint64_t line = 0;     // 0: unknown
  std::string module;    // the loaded object's path; empty for traces
  uint64_t offset = 0;   // pc relative to the module
};

// One access (or the allocation): a message, the thread, the stack (top
// first). `artifact` is the file the step is in when its frames name none
// (a trace: its path).
struct SarifStep {
  std::string message;
  std::string thread;
  std::vector<SarifFrame> frames;
  std::string artifact;
};

struct SarifRace {
  std::string message;  // the result's text
  SarifStep current;    // the racing (second) access
  SarifStep previous;   // the earlier access
  std::optional<SarifStep> allocation;
  std::string fingerprint;  // sarif_race_fingerprint()
};

struct SarifRunInfo {
  std::string version;  // raceaccel's
  uint64_t suppressed = 0;
  bool execution_successful = true;  // false: an input failed (malformed, unreadable, device)
  std::vector<std::string> command_line;
  double sample_rate = 1.0;  // < 1: a sampled run (the runtime's sample=): races may be missing
  std::string notice;        // sampled: the warning to attach to the invocation
};

// The key of results' partialFingerprints.
inline constexpr std::string_view kSarifFingerprintKey = "raceaccelRace/v1";

// A stable identity of a race: 16 hex digits of a 64-bit FNV-1a hash of the
// two accesses' descriptions, sorted (a later run may see them in the other
// order), and of the memory's description. Callers describe accesses by what
// survives a rebuild and a new run — function and file name, the kind of
// access — never by addresses, thread ids or pids.
std::string sarif_race_fingerprint(std::string_view access_a, std::string_view access_b, std::string_view memory);

// A path as a SARIF URI: absolute paths become file:// URIs, others stay
// relative references; characters outside RFC 3986's unreserved set and '/'
// are percent-encoded.
std::string sarif_uri(std::string_view path);

// The whole log: one run, one rule ("data-race"), one result per race.
nlohmann::json sarif_log(const std::vector<SarifRace>& races, const SarifRunInfo& run);

}  // namespace raceaccel
