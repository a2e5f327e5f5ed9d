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

// "Read", "Atomic read", "Atomic write", "Write", "Free" (a free is checked
// as a write of the block).
std::string access_word(bool write, AccessKind kind, bool capital) {
  std::string w = kind == AccessKind::FreeWrite ? "free"
                  : kind == AccessKind::Atomic  ? (write ? "atomic write" : "atomic read")
                  : write                       ? "write"
                                                : "read";
  if (capital) w[0] = static_cast<char>(w[0] - 32);
  return w;
}

std::string frame_text(size_t i, const Frame& f) {
  std::string s = fmt::format("    #{} {}", i, f.function.empty() ? "<unknown>" : f.function);
  if (!f.file.empty()) s += fmt::format(" {}:{}", f.file, f.line);
  if (!f.module.empty()) s += fmt::format(" ({}+{:#x})", f.module, f.offset);
  return s + "\n";
}

std::string stack_text(const std::vector<Frame>& stack) {
  if (stack.empty()) return "    <empty stack>\n";
  std::string s;
  for (size_t i = 0; i < stack.size(); ++i) s += frame_text(i, stack[i]);
  return s;
}

std::vector<SuppressionFrame> suppression_frames(const std::vector<Frame>& stack) {
  std::vector<SuppressionFrame> out;
  out.reserve(stack.size());
  for (const Frame& f : stack) out.push_back({f.function, f.file, f.module_path.empty() ? f.module : f.module_path});
  return out;
}

std::vector<SarifFrame> sarif_frames(const std::vector<Frame>& stack) {
  std::vector<SarifFrame> out;
  for (const Frame& f : stack) {
    out.push_back({f.function, f.file, static_cast<uint64_t>(f.line > 0 ? f.line : 0),
                   f.module_path.empty() ? f.module : f.module_path, f.offset});
  }
  return out;
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What identifies an access across runs and rebuilds of the same source:
// the kind of access and its top frame's function and file name (no line,
// so an edit elsewhere in the file keeps it; no address, pid or thread id).
std::string stable_access_text(std::string_view word, const std::vector<Frame>& stack) {
  if (stack.empty()) return std::string(word);
  const Frame& f = stack.front();
  if (f.function.empty()) return fmt::format("{} {}+{:#x}", word, f.module, f.offset);
  return fmt::format("{} {} {}", word, f.function, base_name(f.file));
}

nlohmann::json stack_json(const std::vector<Frame>& stack) {
  nlohmann::json frames = nlohmann::json::array();
  for (const Frame& f : stack) {
    frames.push_back({{"function", f.function},
                      {"file", f.file},
                      {"line", f.line},
                      {"module", f.module},
                      {"offset", fmt::format("{:#x}", f.offset)}});
  }
  return frames;
}

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
      output_(options.log_path),
      runtime_module_(module_of_this_library()) {}

void Reporter::add_benign(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  InternalLock lock(benign_mu_);
  uint64_t& end = benign_[addr];
  end = std::max(end, addr + size);
}

std::vector<Frame> Reporter::stack(uint32_t node, uint64_t pc) {
  std::vector<uint64_t> pcs{pc};
  for (uint64_t caller : stacks_.frames(node)) pcs.push_back(caller);
  return stack(pcs);
}

std::vector<Frame> Reporter::stack(const std::vector<uint64_t>& pcs) {
  std::vector<Frame> out;
  for (uint64_t p : pcs) {
    if (p == 0) continue;
    bool reached_main = false;
    for (const Frame& f : symbolizer_.frames(p)) {
      if (!runtime_module_.empty() && f.module == runtime_module_) continue;
      out.push_back(f);
      reached_main |= f.function == "main";  // what called main is libc start-up code
    }
    if (reached_main) break;
  }
  // Thread start-up code in libraries without symbols says nothing.
  while (!out.empty() && out.back().function.empty()) out.pop_back();
  return out;
}

std::string Reporter::thread_name(ThreadId tid, bool capital) {
  if (tid == 0) return capital ? "Main thread" : "main thread";
  std::string s = fmt::format("{}hread T{}", capital ? "T" : "t", tid);
  if (auto info = threads_.info(tid); info && !info->name.empty()) s += fmt::format(" '{}'", info->name);
  return s;
}

Reporter::Location Reporter::locate(uint64_t addr) {
  Location loc;
  if (auto fd = descriptor_at(addr)) {  // the runtime's descriptor table (intercept_fd.cpp)
    loc.kind = "fd";
    loc.text = fmt::format("file descriptor {}", *fd);
    return loc;
  }
  if (auto block = heap_.containing(addr)) {
    loc.kind = "heap";
    loc.text = fmt::format("heap block of size {} at {:#x} allocated by {}", block->size, block->addr,
                           thread_name(block->tid, false));
    loc.stack = stack(block->node, block->pc);
    return loc;
  }
  if (auto global = symbolizer_.global_at(addr)) {
    loc.kind = "global";
    loc.global_name = global->name;
    loc.global_module = global->module;
    loc.text = fmt::format("global '{}' of size {} at {:#x} ({}+{:#x})", global->name, global->size, global->addr,
                           global->module, global->offset);
    return loc;
  }
  if (auto owner = threads_.owner_of(addr)) {
    loc.kind = owner->tls ? "tls" : "stack";
    loc.text = fmt::format("{} of {}", owner->tls ? "thread-local storage" : "stack", thread_name(owner->tid, false));
    return loc;
  }
  loc.kind = "unknown";
  return loc;
}

Reporter::ThreadLine Reporter::describe_thread(ThreadId tid) {
  ThreadLine line;
  line.tid = tid;
  auto info = threads_.info(tid);
  if (!info) return line;
  line.text = fmt::format("{} (tid={}, {}) created by {}", thread_name(tid, true), info->os_tid,
                          info->finished ? "finished" : "running", thread_name(info->parent, false));
  line.stack = stack(info->create_stack);
  return line;
}

std::string Reporter::summary_of(const Access& a) {
  if (a.stack.empty()) return "data race <unknown location>";
  const Frame& f = a.stack.front();
  const std::string where =
      f.file.empty() ? fmt::format("({}+{:#x})", f.module, f.offset) : fmt::format("{}:{}", f.file, f.line);
  return fmt::format("data race {} in {}", where, f.function.empty() ? "<unknown>" : f.function);
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
  const Race& r = race.race;
  const Site& cur_site = sites.get(r.site);
  const Site& prev_site = sites.get(r.prev_site);
  Access cur{r.kind != RaceKind::WriteRead,
             unpack_kind(cur_site.size_kind),
             unpack_size(cur_site.size_kind),
             access_addr,
             r.tid,
             stack(cur_site.node, cur_site.pc)};
  Access prev{r.kind != RaceKind::ReadWrite,
              unpack_kind(prev_site.size_kind),
              unpack_size(prev_site.size_kind),
              race.addr,
              r.prev_tid,
              stack(prev_site.node, prev_site.pc)};
  if (cur.size == 0) cur.size = race.size;
  if (prev.size == 0) prev.size = race.size;
  const Location loc = locate(race.addr);
  std::vector<ThreadLine> thread_lines;
  for (ThreadId t : {cur.tid, prev.tid}) {
    if (t == 0) continue;
    bool listed = false;
    for (const ThreadLine& l : thread_lines) listed |= l.tid == t;
    if (!listed) thread_lines.push_back(describe_thread(t));
  }
  if (is_suppressed(cur, prev, loc)) {
    ++suppressed_;
    return;
  }
  if (options_.report_limit != 0 && summaries_.size() >= options_.report_limit) {
    ++over_limit_;
    return;
  }
  if (!options_.sarif.empty()) sarif_races_.push_back(sarif_race(cur, prev, loc));
  summaries_.push_back(summary_of(cur));
  output_.write(options_.json ? render_json(cur, prev, loc, thread_lines, r.site, r.prev_site)
                              : render_text(cur, prev, loc, thread_lines));
  halt_requested_ |= options_.halt_on_error;
}

bool Reporter::is_suppressed(const Access& cur, const Access& prev, const Location& loc) const {
  if (options_.suppressions.empty()) return false;
  RaceSubject subject;
  subject.access_stacks = {suppression_frames(cur.stack), suppression_frames(prev.stack)};
  subject.global_name = loc.global_name;
  subject.global_module = loc.global_module;
  return options_.suppressions.match(subject) != nullptr;
}

SarifRace Reporter::sarif_race(const Access& cur, const Access& prev, const Location& loc) {
  SarifRace race;
  const std::string cur_word = access_word(cur.write, cur.kind, false);
  const std::string prev_word = access_word(prev.write, prev.kind, false);
  race.message = fmt::format("Data race: {} of size {} by {} and an earlier {} by {}{}", cur_word, cur.size,
                             thread_name(cur.tid, false), prev_word, thread_name(prev.tid, false),
                             loc.text.empty() ? "" : "; location is " + loc.text);
  race.current = {fmt::format("{} of size {} at {:#x} by {}", access_word(cur.write, cur.kind, true), cur.size,
                              cur.addr, thread_name(cur.tid, false)),
                  thread_name(cur.tid, true),
                  sarif_frames(cur.stack),
                  {}};
  race.previous = {fmt::format("Previous {} of size {} at {:#x} by {}", prev_word, prev.size, prev.addr,
                               thread_name(prev.tid, false)),
                   thread_name(prev.tid, true),
                   sarif_frames(prev.stack),
                   {}};
  if (loc.kind == "heap") race.allocation = SarifStep{"Allocation of the " + loc.text, {}, sarif_frames(loc.stack), {}};
  const std::string memory = loc.kind == "global" ? "global " + loc.global_name : loc.kind;
  race.fingerprint = sarif_race_fingerprint(stable_access_text(cur_word, cur.stack),
                                            stable_access_text(prev_word, prev.stack), memory);
  return race;
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

std::string Reporter::render_text(const Access& cur, const Access& prev, const Location& loc,
                                  const std::vector<ThreadLine>& threads) {
  std::string s = "==================\n";
  s += fmt::format("WARNING: raceaccel: data race (pid={})\n", getpid());
  s += fmt::format("  {} of size {} at {:#x} by {}:\n", access_word(cur.write, cur.kind, true), cur.size, cur.addr,
                   thread_name(cur.tid, false));
  s += stack_text(cur.stack);
  s += fmt::format("\n  Previous {} of size {} at {:#x} by {}:\n", access_word(prev.write, prev.kind, false), prev.size,
                   prev.addr, thread_name(prev.tid, false));
  s += stack_text(prev.stack);
  if (loc.kind != "unknown") {
    s += fmt::format("\n  Location is {}{}\n", loc.text, loc.kind == "heap" ? ":" : ".");
    if (loc.kind == "heap") s += stack_text(loc.stack);
  }
  for (const ThreadLine& t : threads) {
    if (t.text.empty()) continue;
    s += fmt::format("\n  {} at:\n", t.text);
    s += stack_text(t.stack);
  }
  s += "==================\n";
  return s;
}

std::string Reporter::render_json(const Access& cur, const Access& prev, const Location& loc,
                                  const std::vector<ThreadLine>& threads, uint64_t site, uint64_t prev_site) {
  auto access = [&](const Access& a, uint64_t site_id) {
    return nlohmann::json{{"access", access_word(a.write, a.kind, false)},
                          {"size", a.size},
                          {"address", fmt::format("{:#x}", a.addr)},
                          {"thread", a.tid},
                          {"thread_name", thread_name(a.tid, false)},
                          {"site", site_id},
                          {"stack", stack_json(a.stack)}};
  };
  nlohmann::json thread_list = nlohmann::json::array();
  for (const ThreadLine& t : threads) {
    if (!t.text.empty()) thread_list.push_back({{"thread", t.tid}, {"text", t.text}, {"stack", stack_json(t.stack)}});
  }
  nlohmann::json doc = {{"type", "data race"},
                        {"pid", getpid()},
                        {"current", access(cur, site)},
                        {"previous", access(prev, prev_site)},
                        {"location", {{"kind", loc.kind}, {"text", loc.text}, {"stack", stack_json(loc.stack)}}},
                        {"threads", thread_list},
                        {"summary", summary_of(cur)}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
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
    for (const std::string& line : summaries_) s += "SUMMARY: raceaccel: " + line + "\n";
    s += fmt::format("raceaccel: reported {} data race{}", reports(), reports() == 1 ? "" : "s");
    if (over_limit_ != 0) s += fmt::format(" ({} beyond report_limit not printed)", over_limit_);
    if (suppressed_ != 0) s += fmt::format(" ({} suppressed)", suppressed_);
    s += "\n";
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
