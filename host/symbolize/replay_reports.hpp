// `raceaccel check` on a runtime recording (record=): the races the
// detector found, reported as the live run reported them, from the
// recording's program info (program_info.hpp) and its events. The text is
// program_report.hpp's, the runtime's own.
//
// What the live reporter read from its registries at the time of a report
// is rebuilt from the recording:
//  - sites, stacks, thread-creation stacks: the recorded tables; functions,
//    files and lines from the recorded modules, reported at their recorded
//    addresses, each checked against its GNU build-id;
//  - heap blocks: the events (Alloc with the allocation call's site, the
//    allocator's write giving the requested size, free), followed to the end
//    of the racing thread's drain, where the live report was made;
//  - whether a thread had finished, stack and TLS owners, benign
//    annotations: by the number of events recorded when they changed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/race_report.hpp"
#include "trace/program_info.hpp"

namespace raceaccel {

struct ReplayedReports {
  // A line per module the reports need that is missing or differs from the
  // recorded one ("raceaccel: note: ..."); when there is one, the reports are
  // not symbolized and the caller prints the unsymbolized form.
  std::vector<std::string> notes;
  bool symbolized = false;
  // The reports and the SUMMARY lines, as the live run printed them.
  std::string text;
  size_t printed = 0;
  size_t benign = 0;    // on memory annotated benign: not printed (as live)
  size_t repeated = 0;  // the same pair of sites as an earlier report: not printed (as live)
};

// races: the detector's reports on the trace at `path` (coalesce_races:
// in event order), whose program info is `info`. Reads the trace a second
// time; throws what the trace reader throws.
ReplayedReports replay_reports(const std::string& path, const ProgramInfo& info, const std::vector<RaceReport>& races);

}  // namespace raceaccel
