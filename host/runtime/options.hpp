// RACEACCEL_OPTIONS: the runtime's settings, parsed once at startup.
//
// Syntax: key=value pairs separated by spaces or colons (values therefore
// contain neither). Unknown keys and bad values are errors that name the key;
// the runtime prints them and exits with status 2 before the program runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/exit_codes.hpp"
#include "detect/fasttrack_shadow.hpp"
#include "report/suppressions.hpp"
#include "runtime/region_filter.hpp"

namespace raceaccel::rt {

struct RuntimeOptions {
  std::string backend = "software";  // one of runtime_backend_names()
  std::string log_path;              // reports go to <log_path>.<pid>; empty = stderr
  bool json = false;                 // one JSON object per line instead of text
  bool halt_on_error = false;        // exit (exitcode) after the first report
  int exitcode = exit_code::kRaces;  // status of a racy program that would have exited 0
  uint64_t report_limit = 0;         // reports printed at most; 0 = no limit
  std::string record;                // binary trace of the event stream; empty = none
  std::string xclbin;                // backend=xrt: the card image
  unsigned device = 0;               // backend=xrt: which card
  int verbosity = 0;                 // 1: statistics at exit; 2: also startup line
  bool region_filter = true;         // drop accesses already made in the thread's sync-free region
  bool coalesce = true;              // contiguous accesses from one site become one range check
  bool inline_runs = true;           // coalesce: the callbacks extend a loop's open runs without a call
  bool parallel = true;              // software FastTrack: threads check at once (sharded_fasttrack.hpp)
  bool own_loads = true;             // parallel: loads of a clock the thread holds are buffered (tsan_atomics.cpp)
  bool reuse_slots = true;           // FastTrack: a thread forked after a join takes the joined thread's clock slot
  uint32_t shadow_runs = Shadow::kDefaultMaxRuns;  // FastTrack: runs a shadow page keeps before its cells; 0 = off
  uint32_t region_young = kYoungLinesDefault;  // the region filter's young table: lines (region_filter.hpp); 0 = off
  double sample = 1.0;                         // sample=: share of plain accesses checked (sampling.hpp); 1 = all (off)
  uint64_t sample_seed = 0;                    // sample_seed=: which units are sampled; 0 = a new one per run
  std::string sarif;                           // SARIF 2.1.0 log of the reports, written at exit; empty = none
  std::string suppressions_path;               // ThreadSanitizer-format suppressions file; empty = none
  Suppressions suppressions;                   // its contents, read and parsed with the options
};

struct ParsedOptions {
  RuntimeOptions options;
  std::string error;  // empty when the text was valid
};

ParsedOptions parse_runtime_options(std::string_view text);

// What backend= accepts: `software` (FastTrack, in process), `djit` (the
// golden detector, in process), then the device backends of
// driver/registry.hpp but the driver's own `software` (the kernel's model):
// here that name means the in-process detector.
std::vector<std::string> runtime_backend_names();
// Checks on a Device through the offload engine (device_backend.hpp).
bool is_device_backend(std::string_view backend);

}  // namespace raceaccel::rt
