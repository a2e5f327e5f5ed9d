#include "offload/soft_line.hpp"

namespace raceaccel::offload {

std::pair<SoftLine*, bool> HostLines::adopt(uint64_t granule, const driver::Line& line, const ByteClocks& read_clocks) {
  auto [it, inserted] = lines_.try_emplace(granule);
  if (inserted) {
    for (unsigned b = 0; b < 8; ++b) {
      const driver::ByteState& s = line.bytes[b];
      SoftByte& sb = it->second.bytes[b];
      sb.raced = s.raced;
      sb.w = {s.w_slot, s.w_clock};
      sb.r = {s.r_slot, s.r_clock};
      if (((line.shared >> b) & 1u) && read_clocks[b] != nullptr) {
        sb.shared = true;
        sb.rvc = *read_clocks[b];
        if (sb.r.clock > sb.rvc.get(sb.r.slot)) sb.rvc.set(sb.r.slot, sb.r.clock);
        sb.r = Epoch{};
      }
    }
  }
  return {&it->second, inserted};
}

void HostLines::free_bytes(uint64_t granule, unsigned mask) {
  auto it = lines_.find(granule);
  if (it == lines_.end()) return;
  for (unsigned b = 0; b < 8; ++b) {
    if ((mask >> b) & 1u) it->second.bytes[b] = SoftByte{};
  }
}

namespace {

// The lowest slot whose entry `now` does not cover, or -1.
int64_t first_concurrent(const VectorClock& c, const VectorClock& now) {
  for (uint32_t u = 0; u < c.size(); ++u) {
    if (c.get(u) > now.get(u)) return u;
  }
  return -1;
}

// An atomic access: checks the plain history only (two atomic accesses
// never race), in the order of docs/event-model.md, and records nothing
// here (the atomic history is the host's AtomicHistory). DJIT+'s [SAME
// EPOCH] rule for atomics is not needed: when t made an atomic access of
// the same kind in this epoch, a plain access since then by another thread
// was concurrent with it (t has not released since) and raced, so the byte
// is raced, and t's own plain accesses are covered by t's clock: the
// checks below pass exactly when the rule would skip them.
void check_atomic(SoftByte& s, const SoftAccess& a, const std::function<void(RaceKind, Epoch)>& race) {
  const VectorClock& now = *a.clock;
  if (!now.covers(s.w)) return race(a.atomic_write ? RaceKind::WriteWrite : RaceKind::WriteRead, s.w);
  if (a.atomic_write) {
    if (s.shared) {
      if (const int64_t u = first_concurrent(s.rvc, now); u >= 0) {
        const auto slot = static_cast<uint32_t>(u);
        return race(RaceKind::ReadWrite, {slot, s.rvc.get(slot)});
      }
    } else if (!now.covers(s.r)) {
      return race(RaceKind::ReadWrite, s.r);
    }
  }
}

}  // namespace

void HostLines::check(SoftLine& line, const SoftAccess& a, const RaceSink& sink) {
  const VectorClock& now = *a.clock;
  const Epoch me{a.slot, now.get(a.slot)};
  for (unsigned b = 0; b < 8; ++b) {
    if (!((a.mask >> b) & 1u)) continue;
    SoftByte& s = line.bytes[b];
    if (s.raced) continue;
    const auto race = [&](RaceKind kind, Epoch prev) {
      s.raced = true;
      sink(b, kind, prev, std::nullopt);
    };
    // An earlier atomic access of this byte concurrent with `now` (found
    // when the command was sent, against the history of that moment).
    const auto atomic_race = [&] {
      if (a.conflicts == nullptr || !(*a.conflicts)[b]) return false;
      const AtomicConflict& k = *(*a.conflicts)[b];
      s.raced = true;
      sink(b, k.kind, k.prev, k.site);
      return true;
    };
    if (a.atomic()) {
      check_atomic(s, a, race);
      continue;
    }
    if (!a.write) {
      const bool same_epoch = s.shared ? s.rvc.get(a.slot) == me.clock : s.r == me;
      if (same_epoch) continue;
      if (!now.covers(s.w)) {
        race(RaceKind::WriteRead, s.w);
      } else if (atomic_race()) {
        continue;
      } else if (s.shared) {
        s.rvc.set(a.slot, me.clock);
      } else if (now.covers(s.r)) {
        s.r = me;
      } else {  // READ SHARE: two concurrent reads need a read vector clock
        s.shared = true;
        s.rvc = VectorClock{};
        s.rvc.set(s.r.slot, s.r.clock);
        s.rvc.set(a.slot, me.clock);
      }
      continue;
    }
    if (s.w == me) continue;
    if (!now.covers(s.w)) {
      race(RaceKind::WriteWrite, s.w);
      continue;
    }
    if (atomic_race()) continue;
    if (s.shared) {
      uint32_t racing = UINT32_MAX;
      for (uint32_t u = 0; u < s.rvc.size() && racing == UINT32_MAX; ++u) {
        if (s.rvc.get(u) > now.get(u)) racing = u;
      }
      if (racing != UINT32_MAX) {
        race(RaceKind::ReadWrite, {racing, s.rvc.get(racing)});
        continue;
      }
      s.shared = false;  // every read is ordered before this write
      s.rvc = VectorClock{};
      s.r = Epoch{};
    } else if (!now.covers(s.r)) {
      race(RaceKind::ReadWrite, s.r);
      continue;
    }
    s.w = me;
  }
}

}  // namespace raceaccel::offload
