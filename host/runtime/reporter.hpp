// Turns the detector's races into ThreadSanitizer-style reports: both
// accesses with their stacks, where the memory is, how the threads were
// created; one report per distinct pair of sites; SUMMARY lines at exit.
// Reports that a suppressions= pattern matches are counted, not printed;
// with sarif= the printed ones are also collected and written as a SARIF
// log at exit. Runs under the checker lock (the site depot lives there).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/race_report.hpp"
#include "report/sarif.hpp"
#include "runtime/call_stacks.hpp"
#include "runtime/heap_registry.hpp"
#include "runtime/large_stack.hpp"
#include "runtime/options.hpp"
#include "runtime/report_output.hpp"
#include "runtime/symbolizer.hpp"
#include "runtime/thread_registry.hpp"

namespace raceaccel::rt {

// The line a sampled run (sample=) prints with its summary, and puts in its
// SARIF log: races may have been missed.
std::string sampled_notice(double rate);

class Reporter {
 public:
  Reporter(const RuntimeOptions& options, StackTrie& stacks, ThreadRegistry& threads, HeapRegistry& heap);

  // AnnotateBenignRaceSized: races on these bytes are not reported.
  void add_benign(uint64_t addr, uint64_t size);

  // One coalesced race; access_addr is where the current access starts.
  void on_race(const RaceReport& race, uint64_t access_addr, const SiteDepot& sites);
  size_t reports() const { return summaries_.size() + over_limit_; }
  size_t suppressed() const { return suppressed_; }
  // At exit: one SUMMARY line per report. With json=1 and a device backend
  // the summary object also carries its "accelerator" statistics, and is
  // printed even without reports. With sarif=FILE, writes the SARIF log
  // (also when there was no report).
  void print_summary(const nlohmann::json& accelerator = nullptr);
  void message(std::string_view text) { output_.write(text); }
  // halt_on_error: a report was printed and the process is to end now. The
  // checker ends it: it holds the lock the recording needs to be finished.
  bool halt_requested() const { return halt_requested_; }
  // The sarif= log could not be written (print_summary wrote it): the run
  // then exits with status 74, as for an unwritable recording.
  bool sarif_failed() const { return sarif_failed_; }
  int halt_status() const { return options_.exitcode; }
  void after_fork_child();

 private:
  struct Access {
    bool write = false;
    AccessKind kind = AccessKind::Read;  // for the wording: atomic read, free
    uint64_t size = 0;
    uint64_t addr = 0;
    ThreadId tid = 0;
    std::vector<Frame> stack;
  };
  struct Location {
    std::string text;          // "heap block of size 8 at 0x... allocated by thread T1" ...
    std::string kind;          // heap | global | stack | tls | fd | unknown
    std::vector<Frame> stack;  // heap: the allocation stack
    std::string global_name;   // global: the variable and its module, for suppressions
    std::string global_module;
  };
  struct ThreadLine {
    ThreadId tid = 0;
    std::string text;
    std::vector<Frame> stack;
  };

  struct PendingRace {
    const RaceReport* race;
    uint64_t access_addr;
    const SiteDepot* sites;
    Reporter* self;
  };
  static void report_on_large_stack(void* pending);
  void report(const RaceReport& race, uint64_t access_addr, const SiteDepot& sites);
  std::vector<Frame> stack(uint32_t node, uint64_t pc);
  std::vector<Frame> stack(const std::vector<uint64_t>& return_addresses);
  Location locate(uint64_t addr);
  std::string thread_name(ThreadId tid, bool capital);
  ThreadLine describe_thread(ThreadId tid);
  static std::string summary_of(const Access& a);
  std::string render_text(const Access& cur, const Access& prev, const Location& loc,
                          const std::vector<ThreadLine>& threads);
  std::string render_json(const Access& cur, const Access& prev, const Location& loc,
                          const std::vector<ThreadLine>& threads, uint64_t site, uint64_t prev_site);
  bool is_suppressed(const Access& cur, const Access& prev, const Location& loc) const;
  SarifRace sarif_race(const Access& cur, const Access& prev, const Location& loc);
  void write_sarif();

  const RuntimeOptions& options_;
  StackTrie& stacks_;
  ThreadRegistry& threads_;
  HeapRegistry& heap_;
  Symbolizer symbolizer_;
  LargeStack large_stack_;
  ReportOutput output_;
  std::string runtime_module_;  // frames inside the runtime itself are not shown
  InternalMutex benign_mu_;
  std::map<uint64_t, uint64_t> benign_;  // start → end
  std::set<std::pair<uint64_t, uint64_t>> seen_site_pairs_;
  std::vector<std::string> summaries_;
  size_t over_limit_ = 0;
  size_t suppressed_ = 0;
  std::vector<SarifRace> sarif_races_;  // sarif=: the printed reports
  bool forked_child_ = false;           // sarif=: a forked child writes FILE.<pid>
  bool halt_requested_ = false;
  bool sarif_failed_ = false;
};

}  // namespace raceaccel::rt
