#include "report/race_report.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace raceaccel {
namespace {

std::string_view current_access(RaceKind kind) {
  return kind == RaceKind::ReadWrite || kind == RaceKind::WriteWrite ? "write" : "read";
}
std::string_view earlier_access(RaceKind kind) { return kind == RaceKind::ReadWrite ? "read" : "write"; }
// "atomic write" when that side was an atomic access (an RMW is named by
// the part that conflicts: its write).
std::string access_text(std::string_view access, bool atomic) {
  return atomic ? fmt::format("atomic {}", access) : std::string(access);
}

// Adjacent bytes of one access merge when they race with the same earlier
// access. For an earlier read, detectors may name different (equally valid)
// concurrent readers per byte, so only the event and kind must match: the
// report count is then the same whatever detector or backend produced it.
bool same_origin(const Race& a, const Race& b) {
  // The site too: one event's bytes may come from several instructions (the
  // runtime's runs of coalesced accesses name each byte's own), and each
  // instruction gets its report, as separate events would.
  if (a.event != b.event || a.kind != b.kind || a.prev_atomic != b.prev_atomic || a.site != b.site) return false;
  if (a.kind == RaceKind::ReadWrite) return true;
  return a.prev_tid == b.prev_tid && a.prev_clock == b.prev_clock && a.prev_site == b.prev_site;
}

}  // namespace

std::vector<RaceReport> coalesce_races(const std::vector<Race>& races) {
  const auto by_event_then_byte = [](const Race& a, const Race& b) {
    return a.event != b.event ? a.event < b.event : a.addr < b.addr;
  };
  if (!std::is_sorted(races.begin(), races.end(), by_event_then_byte)) {
    std::vector<Race> sorted = races;
    std::sort(sorted.begin(), sorted.end(), by_event_then_byte);
    return coalesce_races(sorted);
  }
  std::vector<RaceReport> out;
  for (const Race& r : races) {
    if (!out.empty()) {
      RaceReport& last = out.back();
      if (same_origin(last.race, r) && last.addr + last.size == r.addr) {
        ++last.size;
        continue;
      }
    }
    out.push_back({r.addr, 1, r});
  }
  return out;
}

std::string format_race_text(const RaceReport& rep, const SymbolTable& symbols, const std::string& trace) {
  const Race& r = rep.race;
  return fmt::format("{}: event {}: {} race on {} ({} byte{}): {} by {} at site {}; earlier {} by {}@{} at site {}",
                     trace, r.event, race_kind_name(r.kind), symbols.location_name(rep.addr), rep.size,
                     rep.size == 1 ? "" : "s", access_text(current_access(r.kind), r.atomic),
                     symbols.thread_name(r.tid), r.site, access_text(earlier_access(r.kind), r.prev_atomic),
                     symbols.thread_name(r.prev_tid), r.prev_clock, r.prev_site);
}

nlohmann::json race_to_json(const RaceReport& rep, const SymbolTable& symbols, const std::string& trace) {
  const Race& r = rep.race;
  return {
      {"trace", trace},
      {"location", symbols.location_name(rep.addr)},
      {"address", fmt::format("{:#x}", rep.addr)},
      {"size", rep.size},
      {"event", r.event},
      {"kind", race_kind_name(r.kind)},
      {"thread", symbols.thread_name(r.tid)},
      {"access", current_access(r.kind)},
      {"atomic", r.atomic},
      {"site", r.site},
      {"previous",
       {{"thread", symbols.thread_name(r.prev_tid)},
        {"access", earlier_access(r.kind)},
        {"atomic", r.prev_atomic},
        {"clock", r.prev_clock},
        {"epoch", fmt::format("{}@{}", symbols.thread_name(r.prev_tid), r.prev_clock)},
        {"site", r.prev_site}}},
  };
}

TraceRaceNames trace_race_names(const RaceReport& report, const SymbolTable& symbols) {
  return {std::to_string(report.race.site), std::to_string(report.race.prev_site), symbols.location_name(report.addr)};
}

RaceSubject trace_race_subject(const TraceRaceNames& names, std::string_view trace) {
  RaceSubject subject;
  subject.access_stacks = {{{names.current_site, trace, {}}}, {{names.previous_site, trace, {}}}};
  subject.global_name = names.location;
  return subject;
}

SarifRace trace_race_sarif(const RaceReport& rep, const SymbolTable& symbols, const std::string& trace) {
  const Race& r = rep.race;
  const TraceRaceNames names = trace_race_names(rep, symbols);
  const std::string cur_access = access_text(current_access(r.kind), r.atomic);
  const std::string prev_access = access_text(earlier_access(r.kind), r.prev_atomic);
  SarifRace out;
  out.message = fmt::format("{} race on {} ({} byte{}): {} by {} at site {} (event {}); earlier {} by {}@{} at site {}",
                            race_kind_name(r.kind), names.location, rep.size, rep.size == 1 ? "" : "s", cur_access,
                            symbols.thread_name(r.tid), r.site, r.event, prev_access, symbols.thread_name(r.prev_tid),
                            r.prev_clock, r.prev_site);
  out.current = {fmt::format("{} by {} at site {} (event {})", cur_access, symbols.thread_name(r.tid), r.site, r.event),
                 symbols.thread_name(r.tid),
                 {SarifFrame{"site " + names.current_site, {}, 0, {}, 0}},
                 trace};
  out.previous = {fmt::format("earlier {} by {}@{} at site {}", prev_access, symbols.thread_name(r.prev_tid),
                              r.prev_clock, r.prev_site),
                  symbols.thread_name(r.prev_tid),
                  {SarifFrame{"site " + names.previous_site, {}, 0, {}, 0}},
                  trace};
  out.fingerprint = sarif_race_fingerprint(cur_access + " site " + names.current_site,
                                           prev_access + " site " + names.previous_site, names.location);
  return out;
}

}  // namespace raceaccel
