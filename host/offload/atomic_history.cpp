#include "offload/atomic_history.hpp"

#include <algorithm>

namespace raceaccel::offload {

void AtomicHistory::Clock::set(Epoch me, uint64_t site) {
  if (clock.get(me.slot) == me.clock) return;  // the same epoch keeps the first site
  clock.set(me.slot, me.clock);
  if (sites.size() <= me.slot) sites.resize(me.slot + 1, 0);
  sites[me.slot] = site;
}

// The lowest slot whose entry `now` does not cover, or -1.
int64_t AtomicHistory::Clock::first_concurrent(const VectorClock& now) const {
  int64_t lowest = -1;
  clock.for_each([&](uint32_t u, uint64_t c) {
    if (lowest < 0 && c > now.get(u)) lowest = u;
  });
  return lowest;
}

void AtomicHistory::record(uint64_t granule, unsigned mask, Epoch me, uint64_t site, bool reads, bool writes,
                           uint64_t event) {
  const uint64_t h = filter_index(granule);
  filter_[h >> 6] |= uint64_t{1} << (h & 63);
  Line& line = lines_[granule];
  for (unsigned b = 0; b < 8; ++b) {
    if (!((mask >> b) & 1u)) continue;
    if (!line.bytes[b]) line.bytes[b].emplace(event);
    Byte& byte = *line.bytes[b];
    if (reads) byte.reads.set(me, site);
    if (writes) byte.writes.set(me, site);
  }
}

unsigned AtomicHistory::conflicts(uint64_t granule, unsigned mask, bool write, const VectorClock& now,
                                  AtomicConflicts& out) const {
  const auto it = lines_.find(granule);
  if (it == lines_.end()) return 0;
  unsigned found = 0;
  for (unsigned b = 0; b < 8; ++b) {
    out[b].reset();
    const std::optional<Byte>& byte = it->second.bytes[b];
    if (!((mask >> b) & 1u) || !byte) continue;
    // A plain read is checked against the atomic writes, a plain write
    // against the atomic writes and then the atomic reads.
    const auto check = [&](const Clock& c, RaceKind kind) {
      const int64_t u = c.first_concurrent(now);
      if (u < 0) return false;
      const auto slot = static_cast<uint32_t>(u);
      out[b] = AtomicConflict{kind, {slot, c.clock.get(slot)}, c.sites[slot]};
      found |= 1u << b;
      return true;
    };
    if (check(byte->writes, write ? RaceKind::WriteWrite : RaceKind::WriteRead)) continue;
    if (write) check(byte->reads, RaceKind::ReadWrite);
  }
  return found;
}

void AtomicHistory::forget_bytes(uint64_t granule, unsigned mask) {
  const auto it = lines_.find(granule);
  if (it == lines_.end()) return;
  bool any = false;
  for (unsigned b = 0; b < 8; ++b) {
    if ((mask >> b) & 1u) it->second.bytes[b].reset();
    any = any || it->second.bytes[b].has_value();
  }
  if (!any) lines_.erase(it);
  if (lines_.empty()) std::fill(filter_.begin(), filter_.end(), 0);
}

void AtomicHistory::forget_raced(uint64_t granule, unsigned mask, uint64_t event) {
  const auto it = lines_.find(granule);
  if (it == lines_.end()) return;
  unsigned raced = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if (((mask >> b) & 1u) && it->second.bytes[b] && it->second.bytes[b]->since <= event) raced |= 1u << b;
  }
  if (raced != 0) forget_bytes(granule, raced);
}

void AtomicHistory::forget(uint64_t addr, uint64_t size) {
  if (lines_.empty() || size == 0) return;
  const uint64_t first = addr >> 3, last = (addr + size - 1) >> 3;
  // The bytes of granule g inside the range.
  const auto bytes_of = [&](uint64_t g) {
    unsigned mask = 0;
    for (unsigned b = 0; b < 8; ++b) {
      const uint64_t a = g * 8 + b;
      if (a - addr < size) mask |= 1u << b;
    }
    return mask;
  };
  if (last - first + 1 > lines_.size()) {  // a large range: visit the granules with history instead
    for (auto it = lines_.begin(); it != lines_.end();) {
      const uint64_t g = (it++)->first;  // forget_bytes may erase g
      if (g >= first && g <= last) forget_bytes(g, bytes_of(g));
    }
  } else {
    for (uint64_t g = first; g <= last; ++g) forget_bytes(g, bytes_of(g));
  }
}

}  // namespace raceaccel::offload
