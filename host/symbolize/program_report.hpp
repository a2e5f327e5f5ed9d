// A race in a real program, described and written as ThreadSanitizer-style
// text: both accesses with their symbolized stacks, where the memory is,
// how the threads were created. Written once for both users: the runtime's
// Reporter (live: the facts come from its registries) and `raceaccel check`
// on a recording (the facts come from the recorded program info and the
// events before the race; replay_reports.hpp). So a replayed report is the
// live report's text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/event.hpp"
#include "report/race_report.hpp"
#include "report/sarif.hpp"
#include "report/suppressions.hpp"
#include "symbolize/symbolizer.hpp"
#include "trace/program_info.hpp"

namespace raceaccel {

struct SiteFacts {
  uint32_t node = 0;
  uint32_t size_kind = 0;
  uint64_t pc = 0;
};
struct HeapBlockFacts {
  uint64_t addr = 0;
  uint64_t size = 0;  // as requested
  ThreadId tid = 0;
  uint32_t node = 0;  // allocating call stack
  uint64_t pc = 0;    // return address of the allocation call
};
struct ThreadFacts {
  ThreadId parent = 0;
  std::vector<uint64_t> create_stack;
  int64_t os_tid = 0;
  bool finished = false;
  std::string name;
};
struct MemoryOwnerFacts {
  ThreadId tid = 0;
  bool tls = false;  // thread-local storage rather than stack
};

// What the program looked like when the race was found.
class ProgramFacts {
 public:
  virtual ~ProgramFacts() = default;
  virtual SiteFacts site(uint64_t id) = 0;
  // Return addresses of the call-stack node and its callers, innermost first.
  virtual std::vector<uint64_t> callers(uint32_t node) = 0;
  virtual std::optional<HeapBlockFacts> heap_block(uint64_t addr) = 0;
  virtual std::optional<int> descriptor_at(uint64_t addr) = 0;
  virtual std::optional<ThreadFacts> thread(ThreadId tid) = 0;
  virtual std::optional<MemoryOwnerFacts> owner_of(uint64_t addr) = 0;
  virtual int64_t pid() = 0;
};

struct DescribedAccess {
  bool write = false;
  AccessKind kind = AccessKind::Read;  // for the wording: atomic read, free
  uint64_t size = 0;
  uint64_t addr = 0;
  ThreadId tid = 0;
  std::string thread;          // "main thread", "thread T1 'name'"
  std::string thread_capital;  // "Main thread", "Thread T1 'name'"
  uint64_t site = 0;
  std::vector<Frame> stack;
};
struct DescribedLocation {
  std::string text;          // "heap block of size 8 at 0x... allocated by thread T1" ...
  std::string kind;          // heap | global | stack | tls | fd | unknown
  std::vector<Frame> stack;  // heap: the allocation stack
  std::string global_name;   // global: the variable and its module, for suppressions
  std::string global_module;
};
struct DescribedThread {
  ThreadId tid = 0;
  std::string text;
  std::vector<Frame> stack;
};
struct DescribedRace {
  int64_t pid = 0;
  DescribedAccess current, previous;
  DescribedLocation location;
  std::vector<DescribedThread> threads;
};

class RaceDescriber {
 public:
  // Frames in `runtime_module` (a base name; the runtime's own object) are
  // not shown.
  RaceDescriber(Symbolizer& symbolizer, std::string runtime_module)
      : symbolizer_(symbolizer), runtime_module_(std::move(runtime_module)) {}

  // race.race names the sites; access_addr is where the current access starts.
  DescribedRace describe(const RaceReport& race, uint64_t access_addr, ProgramFacts& facts);

 private:
  std::vector<Frame> stack(ProgramFacts& facts, uint32_t node, uint64_t pc);
  std::vector<Frame> stack(const std::vector<uint64_t>& return_addresses);
  std::string thread_name(ProgramFacts& facts, ThreadId tid, bool capital);
  DescribedLocation locate(ProgramFacts& facts, uint64_t addr);
  DescribedThread describe_thread(ProgramFacts& facts, ThreadId tid);

  Symbolizer& symbolizer_;
  std::string runtime_module_;
};

// The report as text (=================== ... ==================) and as one
// JSON line (json=1).
std::string race_text(const DescribedRace& race);
std::string race_json(const DescribedRace& race);
// "data race FILE:LINE in FUNCTION", for the SUMMARY lines.
std::string race_summary(const DescribedRace& race);
// The end of a run's reports: a SUMMARY line per report, then the count.
std::string summary_lines(const std::vector<std::string>& summaries, size_t reports, size_t over_limit,
                          size_t suppressed);
// What suppressions match the race against.
bool race_suppressed(const Suppressions& suppressions, const DescribedRace& race);
SarifRace race_sarif(const DescribedRace& race);

}  // namespace raceaccel
