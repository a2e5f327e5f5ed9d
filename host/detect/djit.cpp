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
      sync_.forget(e.addr, e.size);
      break;
    case Op::Destroy:
      sync_.thread(e.tid);
      sync_.forget_locks(e.addr, e.size);
      break;
    case Op::AtomicLoad:
    case Op::AtomicStore:
    case Op::AtomicRmw: {
      // The access lies between the acquire part (whose clock it sees: an
      // acquire load is ordered after the release it reads from) and the
      // release part (whose increment comes after it).
      const uint32_t t = sync_.thread(e.tid);
      sync_.atomic_acquire(e);
      for (uint64_t i = 0; i < e.size; ++i) atomic_access(e, index, t, e.addr + i);
      sync_.atomic_release(e);
      break;
    }
    default: sync_.apply(e); break;
  }
}

// Every byte is its own location here, so checking only some bytes of an
// access leaves the others' verdicts to whoever checks them.
void DjitDetector::process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) {
  if (is_access(e.op)) {
    const uint32_t t = sync_.thread(e.tid);
    for (const ByteRange& p : parts) {
      for (uint64_t i = 0; i < p.size; ++i) access(e, index, t, p.addr + i);
    }
  } else if (is_atomic(e.op)) {
    const uint32_t t = sync_.thread(e.tid);
    sync_.atomic_acquire(e);
    for (const ByteRange& p : parts) {
      for (uint64_t i = 0; i < p.size; ++i) atomic_access(e, index, t, p.addr + i);
    }
    sync_.atomic_release(e);
  } else {
    process(e, index);
  }
}

void DjitDetector::SitedClock::set(uint32_t slot, uint64_t time, uint64_t site) {
  if (clock.get(slot) == time) return;  // a later access in the same epoch keeps the first site
  clock.set(slot, time);
  sites.set(slot, site);
}

int64_t DjitDetector::SitedClock::first_concurrent(const VectorClock& now) const {
  int64_t lowest = -1;
  clock.for_each([&](uint32_t u, uint64_t c) {
    if (lowest < 0 && c > now.get(u)) lowest = u;
  });
  return lowest;
}

// The order of the checks decides which earlier access a race names, and is
// part of the spec (docs/event-model.md): the last plain write, then atomic
// writes, then atomic reads, then plain reads, each clock by lowest slot.
void DjitDetector::access(const Event& e, uint64_t index, uint32_t t, uint64_t addr) {
  const VectorClock& now = sync_.clock(t);
  const uint64_t local = now.get(t);
  Location& loc = locations_[addr];
  if (loc.raced) return;

  auto report = [&](RaceKind kind, uint32_t prev_slot, uint64_t prev_clock, uint64_t prev_site, bool prev_atomic) {
    races_.push_back({addr, index, kind, e.tid, e.site, sync_.tid_of(prev_slot), prev_clock, prev_site,
                      /*atomic=*/false, prev_atomic});
    loc.raced = true;
  };
  auto report_from = [&](RaceKind kind, const SitedClock& c, int64_t u, bool prev_atomic) {
    const auto slot = static_cast<uint32_t>(u);
    report(kind, slot, c.clock.get(slot), c.sites.get(slot), prev_atomic);
  };
  // Plain writes are totally ordered until the first race, so W_x ⊑ C_t
  // fails iff the last plain write is concurrent: that is the write we report.
  const bool writes_ordered = loc.writes.leq(now);

  if (e.op == Op::Read) {
    if (loc.reads.clock.get(t) == local) return;  // [DJIT+ READ SAME EPOCH]
    if (!writes_ordered)
      return report(RaceKind::WriteRead, loc.last_write.slot, loc.last_write.clock, loc.last_write_site, false);
    if (const int64_t u = loc.atomic_writes.first_concurrent(now); u >= 0)
      return report_from(RaceKind::WriteRead, loc.atomic_writes, u, true);
    loc.reads.set(t, local, e.site);
    return;
  }

  if (loc.writes.get(t) == local) return;  // [DJIT+ WRITE SAME EPOCH]
  if (!writes_ordered)
    return report(RaceKind::WriteWrite, loc.last_write.slot, loc.last_write.clock, loc.last_write_site, false);
  if (const int64_t u = loc.atomic_writes.first_concurrent(now); u >= 0)
    return report_from(RaceKind::WriteWrite, loc.atomic_writes, u, true);
  if (const int64_t u = loc.atomic_reads.first_concurrent(now); u >= 0)
    return report_from(RaceKind::ReadWrite, loc.atomic_reads, u, true);
  if (const int64_t u = loc.reads.first_concurrent(now); u >= 0)
    return report_from(RaceKind::ReadWrite, loc.reads, u, false);
  loc.writes.set(t, local);
  loc.last_write = {t, local};
  loc.last_write_site = e.site;
}

// An atomic access never races with another atomic access: an atomic read
// checks the plain writes, an atomic write (store, or an RMW, which reads
// and writes) the plain writes and the plain reads.
void DjitDetector::atomic_access(const Event& e, uint64_t index, uint32_t t, uint64_t addr) {
  const VectorClock& now = sync_.clock(t);
  const uint64_t local = now.get(t);
  Location& loc = locations_[addr];
  if (loc.raced) return;

  auto report = [&](RaceKind kind, uint32_t prev_slot, uint64_t prev_clock, uint64_t prev_site) {
    races_.push_back({addr, index, kind, e.tid, e.site, sync_.tid_of(prev_slot), prev_clock, prev_site,
                      /*atomic=*/true, /*prev_atomic=*/false});
    loc.raced = true;
  };
  const bool reads = e.op != Op::AtomicStore;
  const bool writes = e.op != Op::AtomicLoad;
  // [SAME EPOCH]: nothing to check or record.
  if ((!reads || loc.atomic_reads.clock.get(t) == local) && (!writes || loc.atomic_writes.clock.get(t) == local))
    return;
  if (!loc.writes.leq(now)) {
    return report(writes ? RaceKind::WriteWrite : RaceKind::WriteRead, loc.last_write.slot, loc.last_write.clock,
                  loc.last_write_site);
  }
  if (writes) {
    if (const int64_t u = loc.reads.first_concurrent(now); u >= 0) {
      const auto slot = static_cast<uint32_t>(u);
      return report(RaceKind::ReadWrite, slot, loc.reads.clock.get(slot), loc.reads.sites.get(slot));
    }
  }
  if (reads) loc.atomic_reads.set(t, local, e.site);
  if (writes) loc.atomic_writes.set(t, local, e.site);
}

// The test inspectors: one clock of a location, empty if it was never accessed.
template <typename Member>
VectorClock DjitDetector::clock_of(uint64_t addr, Member member) const {
  auto it = locations_.find(addr);
  return it == locations_.end() ? VectorClock{} : member(it->second);
}

VectorClock DjitDetector::read_clock(uint64_t addr) const {
  return clock_of(addr, [](const Location& l) { return l.reads.clock; });
}
VectorClock DjitDetector::write_clock(uint64_t addr) const {
  return clock_of(addr, [](const Location& l) { return l.writes; });
}
VectorClock DjitDetector::atomic_read_clock(uint64_t addr) const {
  return clock_of(addr, [](const Location& l) { return l.atomic_reads.clock; });
}
VectorClock DjitDetector::atomic_write_clock(uint64_t addr) const {
  return clock_of(addr, [](const Location& l) { return l.atomic_writes.clock; });
}

}  // namespace raceaccel
