#include "symbolize/program_report.hpp"

#include <fmt/format.h>

namespace raceaccel {
namespace {

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

std::vector<Frame> RaceDescriber::stack(ProgramFacts& facts, uint32_t node, uint64_t pc) {
  std::vector<uint64_t> pcs{pc};
  for (uint64_t caller : facts.callers(node)) pcs.push_back(caller);
  return stack(pcs);
}

std::vector<Frame> RaceDescriber::stack(const std::vector<uint64_t>& pcs) {
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

std::string RaceDescriber::thread_name(ProgramFacts& facts, ThreadId tid, bool capital) {
  if (tid == 0) return capital ? "Main thread" : "main thread";
  std::string s = fmt::format("{}hread T{}", capital ? "T" : "t", tid);
  if (auto info = facts.thread(tid); info && !info->name.empty()) s += fmt::format(" '{}'", info->name);
  return s;
}

DescribedLocation RaceDescriber::locate(ProgramFacts& facts, uint64_t addr) {
  DescribedLocation loc;
  if (auto fd = facts.descriptor_at(addr)) {
    loc.kind = "fd";
    loc.text = fmt::format("file descriptor {}", *fd);
    return loc;
  }
  if (auto block = facts.heap_block(addr)) {
    loc.kind = "heap";
    loc.text = fmt::format("heap block of size {} at {:#x} allocated by {}", block->size, block->addr,
                           thread_name(facts, block->tid, false));
    loc.stack = stack(facts, block->node, block->pc);
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
  if (auto owner = facts.owner_of(addr)) {
    loc.kind = owner->tls ? "tls" : "stack";
    loc.text =
        fmt::format("{} of {}", owner->tls ? "thread-local storage" : "stack", thread_name(facts, owner->tid, false));
    return loc;
  }
  loc.kind = "unknown";
  return loc;
}

DescribedThread RaceDescriber::describe_thread(ProgramFacts& facts, ThreadId tid) {
  DescribedThread line;
  line.tid = tid;
  auto info = facts.thread(tid);
  if (!info) return line;
  line.text = fmt::format("{} (tid={}, {}) created by {}", thread_name(facts, tid, true), info->os_tid,
                          info->finished ? "finished" : "running", thread_name(facts, info->parent, false));
  line.stack = stack(info->create_stack);
  return line;
}

DescribedRace RaceDescriber::describe(const RaceReport& race, uint64_t access_addr, ProgramFacts& facts) {
  const Race& r = race.race;
  const SiteFacts cur_site = facts.site(r.site);
  const SiteFacts prev_site = facts.site(r.prev_site);
  DescribedRace d;
  d.pid = facts.pid();
  d.current = {r.kind != RaceKind::WriteRead,
               unpack_kind(cur_site.size_kind),
               unpack_size(cur_site.size_kind),
               access_addr,
               r.tid,
               thread_name(facts, r.tid, false),
               thread_name(facts, r.tid, true),
               r.site,
               stack(facts, cur_site.node, cur_site.pc)};
  d.previous = {r.kind != RaceKind::ReadWrite,
                unpack_kind(prev_site.size_kind),
                unpack_size(prev_site.size_kind),
                race.addr,
                r.prev_tid,
                thread_name(facts, r.prev_tid, false),
                thread_name(facts, r.prev_tid, true),
                r.prev_site,
                stack(facts, prev_site.node, prev_site.pc)};
  if (d.current.size == 0) d.current.size = race.size;
  if (d.previous.size == 0) d.previous.size = race.size;
  d.location = locate(facts, race.addr);
  for (ThreadId t : {d.current.tid, d.previous.tid}) {
    if (t == 0) continue;
    bool listed = false;
    for (const DescribedThread& l : d.threads) listed |= l.tid == t;
    if (!listed) d.threads.push_back(describe_thread(facts, t));
  }
  return d;
}

std::string race_summary(const DescribedRace& race) {
  const DescribedAccess& a = race.current;
  if (a.stack.empty()) return "data race <unknown location>";
  const Frame& f = a.stack.front();
  const std::string where =
      f.file.empty() ? fmt::format("({}+{:#x})", f.module, f.offset) : fmt::format("{}:{}", f.file, f.line);
  return fmt::format("data race {} in {}", where, f.function.empty() ? "<unknown>" : f.function);
}

std::string race_text(const DescribedRace& race) {
  const DescribedAccess& cur = race.current;
  const DescribedAccess& prev = race.previous;
  const DescribedLocation& loc = race.location;
  std::string s = "==================\n";
  s += fmt::format("WARNING: raceaccel: data race (pid={})\n", race.pid);
  s += fmt::format("  {} of size {} at {:#x} by {}:\n", access_word(cur.write, cur.kind, true), cur.size, cur.addr,
                   cur.thread);
  s += stack_text(cur.stack);
  s += fmt::format("\n  Previous {} of size {} at {:#x} by {}:\n", access_word(prev.write, prev.kind, false), prev.size,
                   prev.addr, prev.thread);
  s += stack_text(prev.stack);
  if (loc.kind != "unknown") {
    s += fmt::format("\n  Location is {}{}\n", loc.text, loc.kind == "heap" ? ":" : ".");
    if (loc.kind == "heap") s += stack_text(loc.stack);
  }
  for (const DescribedThread& t : race.threads) {
    if (t.text.empty()) continue;
    s += fmt::format("\n  {} at:\n", t.text);
    s += stack_text(t.stack);
  }
  s += "==================\n";
  return s;
}

std::string race_json(const DescribedRace& race) {
  auto access = [&](const DescribedAccess& a) {
    return nlohmann::json{{"access", access_word(a.write, a.kind, false)},
                          {"size", a.size},
                          {"address", fmt::format("{:#x}", a.addr)},
                          {"thread", a.tid},
                          {"thread_name", a.thread},
                          {"site", a.site},
                          {"stack", stack_json(a.stack)}};
  };
  nlohmann::json thread_list = nlohmann::json::array();
  for (const DescribedThread& t : race.threads) {
    if (!t.text.empty()) thread_list.push_back({{"thread", t.tid}, {"text", t.text}, {"stack", stack_json(t.stack)}});
  }
  const DescribedLocation& loc = race.location;
  nlohmann::json doc = {{"type", "data race"},
                        {"pid", race.pid},
                        {"current", access(race.current)},
                        {"previous", access(race.previous)},
                        {"location", {{"kind", loc.kind}, {"text", loc.text}, {"stack", stack_json(loc.stack)}}},
                        {"threads", thread_list},
                        {"summary", race_summary(race)}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string summary_lines(const std::vector<std::string>& summaries, size_t reports, size_t over_limit,
                          size_t suppressed) {
  std::string s;
  for (const std::string& line : summaries) s += "SUMMARY: raceaccel: " + line + "\n";
  s += fmt::format("raceaccel: reported {} data race{}", reports, reports == 1 ? "" : "s");
  if (over_limit != 0) s += fmt::format(" ({} beyond report_limit not printed)", over_limit);
  if (suppressed != 0) s += fmt::format(" ({} suppressed)", suppressed);
  return s + "\n";
}

bool race_suppressed(const Suppressions& suppressions, const DescribedRace& race) {
  if (suppressions.empty()) return false;
  RaceSubject subject;
  subject.access_stacks = {suppression_frames(race.current.stack), suppression_frames(race.previous.stack)};
  subject.global_name = race.location.global_name;
  subject.global_module = race.location.global_module;
  return suppressions.match(subject) != nullptr;
}

SarifRace race_sarif(const DescribedRace& d) {
  const DescribedAccess& cur = d.current;
  const DescribedAccess& prev = d.previous;
  const DescribedLocation& loc = d.location;
  SarifRace race;
  const std::string cur_word = access_word(cur.write, cur.kind, false);
  const std::string prev_word = access_word(prev.write, prev.kind, false);
  race.message = fmt::format("Data race: {} of size {} by {} and an earlier {} by {}{}", cur_word, cur.size, cur.thread,
                             prev_word, prev.thread, loc.text.empty() ? "" : "; location is " + loc.text);
  race.current = {fmt::format("{} of size {} at {:#x} by {}", access_word(cur.write, cur.kind, true), cur.size,
                              cur.addr, cur.thread),
                  cur.thread_capital,
                  sarif_frames(cur.stack),
                  {}};
  race.previous = {fmt::format("Previous {} of size {} at {:#x} by {}", prev_word, prev.size, prev.addr, prev.thread),
                   prev.thread_capital,
                   sarif_frames(prev.stack),
                   {}};
  if (loc.kind == "heap") race.allocation = SarifStep{"Allocation of the " + loc.text, {}, sarif_frames(loc.stack), {}};
  const std::string memory = loc.kind == "global" ? "global " + loc.global_name : loc.kind;
  race.fingerprint = sarif_race_fingerprint(stable_access_text(cur_word, cur.stack),
                                            stable_access_text(prev_word, prev.stack), memory);
  return race;
}

}  // namespace raceaccel
