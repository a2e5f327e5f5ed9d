// Turns the detector's races into ThreadSanitizer-style reports: both
// accesses with their stacks, where the memory is, how the threads were
// created; one report per distinct pair of sites; SUMMARY lines at exit.
// Reports that a suppressions= pattern matches are counted, not printed;
// with sarif= the printed ones are also collected and written as a SARIF
// log at exit. Runs under the checker lock (the site depot lives there).
// What a report says and how it is written is symbolize/program_report.hpp,
// shared with `raceaccel check` on a recording; the facts come from the
// runtime's registries here.
#pragma once

#include <atomic>
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
#include "runtime/thread_registry.hpp"
#include "symbolize/program_report.hpp"
#include "symbolize/symbolizer.hpp"

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
  // The benign ranges so far, for the recording.
  std::vector<BenignRange> benign_ranges();
  // The runtime's own module (base name), whose frames reports leave out.
  const std::string& runtime_module() const { return runtime_module_; }
  // How many events the recording holds now (for benign ranges); set by the checker.
  void set_event_clock(const std::atomic<uint64_t>* recorded) { recorded_ = recorded; }

 private:
  struct PendingRace {
    const RaceReport* race;
    uint64_t access_addr;
    const SiteDepot* sites;
    Reporter* self;
  };
  static void report_on_large_stack(void* pending);
  void report(const RaceReport& race, uint64_t access_addr, const SiteDepot& sites);
  void write_sarif();

  const RuntimeOptions& options_;
  StackTrie& stacks_;
  ThreadRegistry& threads_;
  HeapRegistry& heap_;
  Symbolizer symbolizer_;
  RaceDescriber describer_;
  LargeStack large_stack_;
  ReportOutput output_;
  std::string runtime_module_;  // frames inside the runtime itself are not shown
  InternalMutex benign_mu_;
  std::map<uint64_t, uint64_t> benign_;  // start → end
  std::vector<BenignRange> benign_log_;  // as annotated, for the recording
  const std::atomic<uint64_t>* recorded_ = nullptr;
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
