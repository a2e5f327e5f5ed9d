#include "runtime/reporter.hpp"

#include "runtime/fd_table.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

namespace raceaccel::rt {
namespace {

std::string module_of_this_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&module_of_this_library), &info) == 0 || info.dli_fname == nullptr) return {};
  const char* slash = std::strrchr(info.dli_fname, '/');
  return slash != nullptr ? slash + 1 : info.dli_fname;
}

// The live program as reports see it: the runtime's registries.
class LiveFacts final : public ProgramFacts {
 public:
  LiveFacts(StackTrie& stacks, ThreadRegistry& threads, HeapRegistry& heap, const SiteDepot& sites)
      : stacks_(stacks), threads_(threads), heap_(heap), sites_(sites) {}
  SiteFacts site(uint64_t id) override {
    const Site s = sites_.get(id);
    return {s.node, s.size_kind, s.pc};
  }
  std::vector<uint64_t> callers(uint32_t node) override { return stacks_.frames(node); }
  std::optional<HeapBlockFacts> heap_block(uint64_t addr) override {
    auto b = heap_.containing(addr);
    if (!b) return std::nullopt;
    return HeapBlockFacts{b->addr, b->size, b->tid, b->node, b->pc};
  }
  std::optional<int> descriptor_at(uint64_t addr) override {
    return rt::descriptor_at(addr);  // the runtime's descriptor table (intercept_fd.cpp)
  }
  std::optional<ThreadFacts> thread(ThreadId tid) override {
    auto info = threads_.info(tid);
    if (!info) return std::nullopt;
    return ThreadFacts{info->parent, info->create_stack, info->os_tid, info->finished, info->name};
  }
  std::optional<MemoryOwnerFacts> owner_of(uint64_t addr) override {
    auto owner = threads_.owner_of(addr);
    if (!owner) return std::nullopt;
    return MemoryOwnerFacts{owner->tid, owner->tls};
  }
  int64_t pid() override { return getpid(); }

 private:
  StackTrie& stacks_;
  ThreadRegistry& threads_;
  HeapRegistry& heap_;
  const SiteDepot& sites_;
};

}  // namespace

std::string sampled_notice(double rate) {
  return fmt::format(
      "raceaccel: sampled run (sample={}): only part of the memory accesses were checked, so races may have been "
      "missed; every race reported is real",
      rate);
}

Reporter::Reporter(const RuntimeOptions& options, StackTrie& stacks, ThreadRegistry& threads, HeapRegistry& heap)
    : options_(options),
      stacks_(stacks),
      threads_(threads),
      heap_(heap),
      describer_(symbolizer_, module_of_this_library()),
      output_(options.log_path),
      runtime_module_(module_of_this_library()) {}

void Reporter::add_benign(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  InternalLock lock(benign_mu_);
  uint64_t& end = benign_[addr];
  end = std::max(end, addr + size);
  benign_log_.push_back({addr, size, recorded_ != nullptr ? recorded_->load(std::memory_order_relaxed) : 0});
}

std::vector<BenignRange> Reporter::benign_ranges() {
  InternalLock lock(benign_mu_);
  return benign_log_;
}

void Reporter::on_race(const RaceReport& race, uint64_t access_addr, const SiteDepot& sites) {
  {
    InternalLock lock(benign_mu_);
    auto it = benign_.upper_bound(race.addr);
    if (it != benign_.begin() && race.addr < std::prev(it)->second) return;
  }
  const Race& r = race.race;
  if (!seen_site_pairs_.insert(std::minmax(r.site, r.prev_site)).second) return;
  // Past the limit nothing is printed; without suppressions the report need
  // not even be symbolized (with them it must be: a suppressed one is not
  // counted as over the limit).
  if (options_.suppressions.empty() && options_.report_limit != 0 && summaries_.size() >= options_.report_limit) {
    ++over_limit_;
    return;
  }
  PendingRace pending{&race, access_addr, &sites, this};
  large_stack_.run(&Reporter::report_on_large_stack, &pending);
}

void Reporter::report_on_large_stack(void* pending) {
  auto* p = static_cast<PendingRace*>(pending);
  try {  // nothing may unwind out of the private stack
    p->self->report(*p->race, p->access_addr, *p->sites);
  } catch (const std::exception& e) {
    p->self->output_.write(std::string("raceaccel: cannot write a race report: ") + e.what() + "\n");
  }
}

void Reporter::report(const RaceReport& race, uint64_t access_addr, const SiteDepot& sites) {
  LiveFacts facts(stacks_, threads_, heap_, sites);
  const DescribedRace described = describer_.describe(race, access_addr, facts);
  if (race_suppressed(options_.suppressions, described)) {
    ++suppressed_;
    return;
  }
  if (options_.report_limit != 0 && summaries_.size() >= options_.report_limit) {
    ++over_limit_;
    return;
  }
  if (!options_.sarif.empty()) sarif_races_.push_back(race_sarif(described));
  summaries_.push_back(race_summary(described));
  output_.write(options_.json ? race_json(described) : race_text(described));
  halt_requested_ |= options_.halt_on_error;
}

void Reporter::write_sarif() {
  if (options_.sarif.empty()) return;
  SarifRunInfo run;
  run.version = RACEACCEL_VERSION;
  run.suppressed = suppressed_;
  if (options_.sample < 1.0) {
    run.sample_rate = options_.sample;
    run.notice = sampled_notice(options_.sample);
  }
  const std::string text =
      sarif_log(sarif_races_, run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const std::string path = forked_child_ ? fmt::format("{}.{}", options_.sarif, getpid()) : options_.sarif;
  // Written beside it and renamed over it: a log that cannot be written
  // leaves an earlier one whole, never a truncated file.
  const std::string temporary = fmt::format("{}.tmp.{}", path, getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int error = fd < 0 ? errno : 0;
  std::string_view rest = text;
  while (fd >= 0 && !rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : ENOSPC;
      break;
    }
    rest.remove_prefix(static_cast<size_t>(n));
  }
  if (fd >= 0 && ::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error == 0) return;
  if (fd >= 0) ::unlink(temporary.c_str());
  sarif_failed_ = true;
  output_.write(fmt::format("raceaccel: cannot write the SARIF log {}: {}\n", path, std::strerror(error)));
}

void Reporter::print_summary(const nlohmann::json& accelerator) {
  write_sarif();
  const bool with_accelerator = options_.json && !accelerator.is_null();
  // A sampled run always says so: its verdict, clean or not, is not exact.
  const bool sampled = options_.sample < 1.0;
  if (reports() == 0 && suppressed_ == 0 && !with_accelerator && !sampled) return;
  std::string s;
  if (options_.json) {
    nlohmann::json doc = {
        {"type", "summary"}, {"reports", reports()}, {"suppressed", suppressed_}, {"summaries", summaries_}};
    if (with_accelerator) doc["accelerator"] = accelerator;
    if (sampled) doc["sample"] = options_.sample;
    s = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  } else {
    s = summary_lines(summaries_, reports(), over_limit_, suppressed_);
    if (sampled) s += sampled_notice(options_.sample) + "\n";
  }
  output_.write(s);
}

void Reporter::after_fork_child() {
  output_.after_fork_child();
  summaries_.clear();
  over_limit_ = 0;
  suppressed_ = 0;
  sarif_races_.clear();
  forked_child_ = true;
}

}  // namespace raceaccel::rt
