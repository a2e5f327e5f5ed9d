#include "detect/djit.hpp"

namespace raceaccel {

void DjitDetector::process(const Event& e, uint64_t index) {
  switch (e.op) {
    case Op::Read:
    case Op::Write: {
      const uint32_t t = sync_.thread(e.tid);
      for (uint64_t i = 0; i < e.size; ++i) access(e, index, t, e.addr + i);
      break;
    }
    case Op::Alloc:
    case Op::Free:
      sync_.thread(e.tid);
      if (e.size > locations_.size()) {  // a large range: visit the known bytes instead
        std::erase_if(locations_, [&](const auto& entry) { return entry.first - e.addr < e.size; });
      } else {
        for (uint64_t i = 0; i < e.size; ++i) locations_.erase(e.addr + i);
      }
      sync_.forget_atomics(e.addr, e.size);
      break;
    default: sync_.apply(e); break;
  }
}

void DjitDetector::access(const Event& e, uint64_t index, uint32_t t, uint64_t addr) {
  const VectorClock& now = sync_.clock(t);
  const uint64_t local = now.get(t);
  Location& loc = locations_[addr];
  if (loc.raced) return;

  auto report = [&](RaceKind kind, uint32_t prev_slot, uint64_t prev_clock, uint64_t prev_site) {
    races_.push_back({addr, index, kind, e.tid, e.site, sync_.tid_of(prev_slot), prev_clock, prev_site});
    loc.raced = true;
  };
  // Writes are totally ordered until the first race, so W_x ⊑ C_t fails iff
  // the last write is concurrent: that is the write we report.
  const bool writes_ordered = loc.writes.leq(now);

  if (e.op == Op::Read) {
    if (loc.reads.get(t) == local) return;  // [DJIT+ READ SAME EPOCH]
    if (!writes_ordered)
      return report(RaceKind::WriteRead, loc.last_write.slot, loc.last_write.clock, loc.last_write_site);
    loc.reads.set(t, local);
    loc.read_sites.set(t, e.site);
    return;
  }

  if (loc.writes.get(t) == local) return;  // [DJIT+ WRITE SAME EPOCH]
  if (!writes_ordered)
    return report(RaceKind::WriteWrite, loc.last_write.slot, loc.last_write.clock, loc.last_write_site);
  // The lowest slot whose read is concurrent.
  uint32_t racing = UINT32_MAX;
  loc.reads.for_each([&](uint32_t u, uint64_t r) {
    if (racing == UINT32_MAX && r > now.get(u)) racing = u;
  });
  if (racing != UINT32_MAX)
    return report(RaceKind::ReadWrite, racing, loc.reads.get(racing), loc.read_sites.get(racing));
  loc.writes.set(t, local);
  loc.last_write = {t, local};
  loc.last_write_site = e.site;
}

VectorClock DjitDetector::read_clock(uint64_t addr) const {
  auto it = locations_.find(addr);
  return it == locations_.end() ? VectorClock{} : it->second.reads;
}

VectorClock DjitDetector::write_clock(uint64_t addr) const {
  auto it = locations_.find(addr);
  return it == locations_.end() ? VectorClock{} : it->second.writes;
}

}  // namespace raceaccel
