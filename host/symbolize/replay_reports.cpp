#include "symbolize/replay_reports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "symbolize/program_report.hpp"
#include "symbolize/symbolizer.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {
namespace {

// The recorded program at one point of its event stream: heap blocks as
// far as the events applied so far; threads and benign ranges as of
// `now`, the index of the racing event (a thread that finished when the
// recording held `now` events or fewer had finished before that event).
class RecordedFacts final : public ProgramFacts {
 public:
  explicit RecordedFacts(const ProgramInfo& info) : info_(info) {}

  void set_now(uint64_t events) { now_ = events; }

  // Heap blocks, followed as the runtime's registry follows them (the
  // registry is updated in the allocation functions, before their events).
  void apply_heap_effect(const Event& e) {
    const AccessKind kind = e.site != 0 ? unpack_kind(site(e.site).size_kind) : AccessKind::Read;
    if (e.op == Op::Alloc && e.site != 0 && kind == AccessKind::Alloc) {
      const SiteFacts s = site(e.site);
      // A new block drops the stale ones it overlaps (HeapRegistry::add).
      auto it = blocks_.lower_bound(e.addr);
      if (it != blocks_.begin()) {
        auto before = std::prev(it);
        if (before->first + std::max<uint64_t>(before->second.size, 1) > e.addr) blocks_.erase(before);
      }
      while (it != blocks_.end() && it->first < e.addr + e.size) it = blocks_.erase(it);
      blocks_[e.addr] = HeapBlockFacts{e.addr, 0, e.tid, s.node, s.pc};
    } else if (e.op == Op::Write && kind == AccessKind::AllocWrite) {
      auto it = blocks_.find(e.addr);  // the allocator's write: the size requested
      if (it != blocks_.end() && it->second.tid == e.tid) it->second.size = e.size;
    } else if ((e.op == Op::Write && kind == AccessKind::FreeWrite) || e.op == Op::Free) {
      blocks_.erase(e.addr);  // free removes the block before its write is checked
    }
  }

  SiteFacts site(uint64_t id) override {
    if (id == 0) return {};
    const uint32_t code = site_code(id);
    if (code >= info_.codes.size()) return {};
    return {site_node(id), info_.codes[code].size_kind, info_.codes[code].pc};
  }
  std::vector<uint64_t> callers(uint32_t node) override {
    std::vector<uint64_t> out;
    while (node != 0 && node < info_.nodes.size()) {
      out.push_back(info_.nodes[node].pc);
      node = info_.nodes[node].parent;
    }
    return out;
  }
  std::optional<HeapBlockFacts> heap_block(uint64_t addr) override {
    auto it = blocks_.upper_bound(addr);
    if (it == blocks_.begin()) return std::nullopt;
    --it;
    const HeapBlockFacts& b = it->second;
    if (addr - b.addr < (b.size == 0 ? 1 : b.size)) return b;
    return std::nullopt;
  }
  std::optional<int> descriptor_at(uint64_t addr) override {
    const uint64_t base = info_.fd_table_base;
    if (info_.fd_entry_bytes == 0 || addr < base || addr - base >= info_.fd_entry_bytes * info_.fd_count) {
      return std::nullopt;
    }
    return static_cast<int>((addr - base) / info_.fd_entry_bytes);
  }
  std::optional<ThreadFacts> thread(ThreadId tid) override {
    if (tid >= info_.threads.size()) return std::nullopt;
    const ProgramThread& t = info_.threads[tid];
    return ThreadFacts{t.parent, t.create_stack, t.os_tid, finished(t), t.name};
  }
  std::optional<MemoryOwnerFacts> owner_of(uint64_t addr) override {
    // As ThreadRegistry::owner_of: running threads first, then the most recent.
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = info_.threads.size(); i-- > 0;) {
        const ProgramThread& t = info_.threads[i];
        if (finished(t) != (pass == 1)) continue;
        if (addr >= t.tls_lo && addr < t.tls_hi) return MemoryOwnerFacts{static_cast<ThreadId>(i), true};
        if (addr >= t.stack_lo && addr < t.stack_hi) return MemoryOwnerFacts{static_cast<ThreadId>(i), false};
      }
    }
    return std::nullopt;
  }
  int64_t pid() override { return info_.pid; }

  bool benign(uint64_t addr) const {
    for (const BenignRange& b : info_.benign) {
      if (b.from_event <= now_ && addr >= b.addr && addr - b.addr < b.size) return true;
    }
    return false;
  }

 private:
  bool finished(const ProgramThread& t) const { return t.finished_at <= now_; }

  const ProgramInfo& info_;
  uint64_t now_ = 0;
  std::map<uint64_t, HeapBlockFacts> blocks_;
};

bool is_plain_access(Op op) { return op == Op::Read || op == Op::Write || op == Op::Alloc; }

// The modules the reports need (those holding a recorded pc or a racy
// byte) that are missing or not the recorded build; and the usable ones.
std::vector<std::string> check_modules(const ProgramInfo& info, const std::vector<RaceReport>& races,
                                       std::vector<ProgramModule>& usable) {
  std::vector<uint64_t> addresses;
  for (const StackNode& n : info.nodes) addresses.push_back(n.pc);
  for (const CodeSite& c : info.codes) addresses.push_back(c.pc);
  for (const ProgramThread& t : info.threads)
    addresses.insert(addresses.end(), t.create_stack.begin(), t.create_stack.end());
  for (const RaceReport& r : races) addresses.push_back(r.addr);
  std::sort(addresses.begin(), addresses.end());
  std::vector<std::string> notes;
  for (const ProgramModule& m : info.modules) {
    const auto first = std::lower_bound(addresses.begin(), addresses.end(), m.low);
    const bool needed = first != addresses.end() && *first < m.high;
    const std::optional<std::string> id = gnu_build_id(m.path);
    if (id && *id == m.build_id) {
      usable.push_back(m);
    } else if (needed && !id) {
      notes.push_back(
          fmt::format("raceaccel: note: {}: module not found (or not readable as ELF); reports are not "
                      "symbolized",
                      m.path));
    } else if (needed) {
      notes.push_back(
          fmt::format("raceaccel: note: {}: build-id {} differs from the recorded {}; reports are not "
                      "symbolized",
                      m.path, id->empty() ? "(none)" : build_id_hex(*id),
                      m.build_id.empty() ? "(none)" : build_id_hex(m.build_id)));
    }
  }
  return notes;
}

}  // namespace

ReplayedReports replay_reports(const std::string& path, const ProgramInfo& info, const std::vector<RaceReport>& races) {
  ReplayedReports out;
  std::vector<ProgramModule> usable;
  out.notes = check_modules(info, races, usable);
  if (!out.notes.empty()) return out;
  out.symbolized = true;
  if (races.empty()) return out;

  Symbolizer symbolizer(usable);
  RaceDescriber describer(symbolizer, info.runtime_module);
  RecordedFacts facts(info);
  std::set<std::pair<uint64_t, uint64_t>> seen_site_pairs;
  std::vector<std::string> summaries;
  // Live, a race is reported when its thread's drain ends: the registries
  // have by then seen that thread's later accesses of the drain (which the
  // recording holds right after the racing one) and the synchronization
  // event that ended it.
  auto report = [&](const RaceReport& rep, uint64_t access_addr) {
    if (facts.benign(rep.addr)) {
      ++out.benign;
      return;
    }
    if (!seen_site_pairs.insert(std::minmax(rep.race.site, rep.race.prev_site)).second) {
      ++out.repeated;
      return;
    }
    const DescribedRace described = describer.describe(rep, access_addr, facts);
    summaries.push_back(race_summary(described));
    out.text += race_text(described);
    ++out.printed;
  };

  std::unique_ptr<TraceReader> reader = open_trace(path);
  size_t next_race = 0;
  std::vector<std::pair<const RaceReport*, uint64_t>> pending;  // races of the drain under way, with their access
  ThreadId drain_thread = 0;
  // Threads finishing and benign annotations are placed by event count:
  // before the racing event was recorded (that drain then reported it), or
  // after the report. Heap blocks by the events applied so far.
  auto flush = [&] {
    for (const auto& [rep, addr] : pending) {
      facts.set_now(rep->race.event);
      report(*rep, addr);
    }
    pending.clear();
  };
  Event e;
  uint64_t index = 0;
  for (; reader->next(e); ++index) {
    if (!pending.empty() && (e.tid != drain_thread || !is_plain_access(e.op))) {
      if (e.tid == drain_thread && e.op == Op::Free) {
        facts.apply_heap_effect(e);  // the free that ended the drain: removed before it
        flush();
        continue;
      }
      flush();
    }
    facts.apply_heap_effect(e);
    for (; next_race < races.size() && races[next_race].race.event == index; ++next_race) {
      const RaceReport& rep = races[next_race];
      // An atomic access is reported at its first racy byte, a plain one at its start.
      pending.emplace_back(&rep, is_atomic(e.op) ? rep.addr : e.addr);
      drain_thread = e.tid;
    }
    if (is_atomic(e.op) && !pending.empty()) flush();  // reported right after the operation
    if (next_race == races.size() && pending.empty()) break;
  }
  flush();
  out.text += summary_lines(summaries, out.printed, 0, 0);
  return out;
}

}  // namespace raceaccel
