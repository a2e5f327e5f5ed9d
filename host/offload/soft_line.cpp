#include "offload/soft_line.hpp"

namespace raceaccel::offload {

std::pair<SoftLine*, bool> HostLines::adopt(uint64_t granule, const driver::Line& line, const VectorClock* read_clock) {
  auto [it, inserted] = lines_.try_emplace(granule);
  if (inserted) {
    for (unsigned b = 0; b < 8; ++b) {
      const driver::ByteState& s = line.bytes[b];
      SoftByte& sb = it->second.bytes[b];
      sb.raced = s.raced;
      sb.w = {s.w_slot, s.w_clock};
      sb.r = {s.r_slot, s.r_clock};
      if (((line.shared >> b) & 1u) && read_clock != nullptr) {
        sb.shared = true;
        sb.rvc = *read_clock;
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

void HostLines::check(SoftLine& line, const SoftAccess& a, const RaceSink& sink) {
  const VectorClock& now = *a.clock;
  const Epoch me{a.slot, now.get(a.slot)};
  for (unsigned b = 0; b < 8; ++b) {
    if (!((a.mask >> b) & 1u)) continue;
    SoftByte& s = line.bytes[b];
    if (s.raced) continue;
    const auto race = [&](RaceKind kind, Epoch prev) {
      s.raced = true;
      sink(b, kind, prev);
    };
    if (!a.write) {
      const bool same_epoch = s.shared ? s.rvc.get(a.slot) == me.clock : s.r == me;
      if (same_epoch) continue;
      if (!now.covers(s.w)) {
        race(RaceKind::WriteRead, s.w);
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
