#include "offload/site_log.hpp"

#include <algorithm>

namespace raceaccel::offload {

void SiteLog::record(uint32_t slot, uint64_t clock, uint64_t granule, bool write, unsigned mask, uint64_t event,
                     uint64_t site) {
  if (site == 0) return;
  if (threads_.size() <= slot) threads_.resize(slot + 1);
  Thread& t = threads_[slot];
  if (t.epochs.empty() || t.epochs.back().clock != clock) {
    t.epochs.push_back({clock, t.entries.size()});
  } else if (!t.entries.empty()) {
    // A repeat at the same site needs no entry: whichever of the two set the
    // epoch, the site is the same.
    const Entry& last = t.entries.back();
    if (last.granule == granule && last.write == write && last.site == site && (last.mask & mask) == mask) return;
  }
  t.entries.push_back({event, granule, site, static_cast<uint8_t>(mask), write});
  ++entries_;
}

void SiteLog::record_reset(uint64_t event, uint64_t addr, uint64_t size) {
  if (entries_ != 0) resets_.push_back({event, addr, size});
}

bool SiteLog::reset_between(uint64_t addr, uint64_t after, uint64_t before) const {
  auto it =
      std::upper_bound(resets_.begin(), resets_.end(), after, [](uint64_t e, const Reset& r) { return e < r.event; });
  for (; it != resets_.end() && it->event < before; ++it) {
    if (addr >= it->addr && addr - it->addr < it->size) return true;
  }
  return false;
}

uint64_t SiteLog::find(uint32_t slot, uint64_t clock, uint64_t addr, bool write, uint64_t event) const {
  if (slot >= threads_.size()) return 0;
  const Thread& t = threads_[slot];
  auto epoch = std::lower_bound(t.epochs.begin(), t.epochs.end(), clock,
                                [](const EpochStart& s, uint64_t c) { return s.clock < c; });
  if (epoch == t.epochs.end() || epoch->clock != clock) return 0;
  const std::size_t end = std::next(epoch) == t.epochs.end() ? t.entries.size() : std::next(epoch)->first;
  const uint64_t granule = addr >> 3;
  const unsigned bit = 1u << (addr & 7);
  // In event order: the answer is the first matching entry after the last
  // reset of the byte that lies between matching entries.
  const Entry* answer = nullptr;
  for (std::size_t i = epoch->first; i < end; ++i) {
    const Entry& e = t.entries[i];
    if (e.event >= event) break;
    if (e.granule != granule || e.write != write || !(e.mask & bit)) continue;
    if (answer == nullptr || reset_between(addr, answer->event, e.event)) answer = &e;
  }
  return answer == nullptr ? 0 : answer->site;
}

}  // namespace raceaccel::offload
