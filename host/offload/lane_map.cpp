#include "offload/lane_map.hpp"

#include <algorithm>

namespace raceaccel::offload {

LaneMap::LaneMap(unsigned lanes, bool recycle, uint64_t max_clock)
    : recycle_(recycle), max_clock_(max_clock), lanes_(lanes) {}

void LaneMap::grow(uint32_t thread) {
  if (lane_of_.size() <= thread) {
    lane_of_.resize(thread + 1, kNoLane);
    state_.resize(thread + 1, State::Live);
    evicted_.resize(thread + 1, false);
    held_lane_.resize(thread + 1, kNoLane);
    holder_index_.resize(thread + 1, 0);
  }
}

void LaneMap::created(uint32_t thread, const VectorClock* fork_clock) {
  grow(thread);
  if (fresh_ < lanes_.size()) {
    if (thread != fresh_) identity_ = false;
    lanes_[fresh_].holders.push_back({thread, 1, 1, UINT64_MAX});
    held_lane_[thread] = fresh_;
    lane_of_[thread] = fresh_++;
    return;
  }
  if (!recycle_ || fork_clock == nullptr) return;  // slotless
  const uint32_t l = recyclable_lane(*fork_clock);
  if (l != kNoLane) give(thread, l, 1);
}

bool LaneMap::adopt(uint32_t thread, const VectorClock& clock) {
  if (!any_free() || thread >= state_.size() || lane_of_[thread] != kNoLane || evicted_[thread] ||
      state_[thread] != State::Live) {
    return false;
  }
  const uint32_t l = recyclable_lane(clock);
  if (l == kNoLane) return false;
  give(thread, l, clock.get(thread));
  ++adopted_;
  return true;
}

// Of the free lanes whose holder's end `clock` knows (u_old ≺ u_new), the
// one with the lowest clock, to keep lanes within the clock width as long
// as possible.
uint32_t LaneMap::recyclable_lane(const VectorClock& clock) const {
  uint32_t best = kNoLane;
  uint64_t best_clock = UINT64_MAX;
  for (unsigned l = 0; l < lanes_.size(); ++l) {
    const Lane& lane = lanes_[l];
    if (!lane.free) continue;
    if (clock.get(lane.holders.back().thread) < lane.final_local) continue;
    const uint64_t next = lane.next_clock();
    if (next > max_clock_) continue;  // the new holder's first clock would not fit
    if (next < best_clock) {
      best = l;
      best_clock = next;
    }
  }
  return best;
}

void LaneMap::set_free(Lane& lane, bool free) {
  if (lane.free == free) return;
  lane.free = free;
  if (free) {
    ++free_;
  } else {
    --free_;
  }
}

// The new holder continues the lane's clock: its local time `start` is one
// above the old holder's last lane clock.
void LaneMap::give(uint32_t thread, unsigned l, uint64_t start) {
  Lane& lane = lanes_[l];
  const uint64_t base = lane.next_clock();
  Holder& old = lane.holders.back();
  old.end = lane.final_local;
  lane_of_[old.thread] = kNoLane;
  lane.holders.push_back({thread, start, base, UINT64_MAX});
  set_free(lane, false);
  identity_ = false;
  lane_of_[thread] = l;
  held_lane_[thread] = l;
  holder_index_[thread] = static_cast<uint32_t>(lane.holders.size() - 1);
  ++recycled_;
}

void LaneMap::joined(uint32_t thread, uint64_t final_local) {
  if (thread >= state_.size()) return;
  if (state_[thread] == State::Joined) {  // joined again: its clock ran past the first join
    acted_after_join(thread);
    return;
  }
  state_[thread] = State::Joined;
  const uint32_t l = lane_of_[thread];
  if (l == kNoLane || lanes_[l].pinned) return;
  lanes_[l].final_local = final_local;
  set_free(lanes_[l], true);
}

void LaneMap::evict(uint32_t thread) {
  const uint32_t l = lane_of_[thread];
  if (l == kNoLane) return;
  set_free(lanes_[l], false);
  lanes_[l].pinned = true;
  lane_of_[thread] = kNoLane;
  evicted_[thread] = true;
}

void LaneMap::acted_after_join(uint32_t thread) {
  const uint32_t l = lane_of_[thread];
  if (l == kNoLane) return;  // slotless (its lane moved on, or it never had one)
  set_free(lanes_[l], false);
  lanes_[l].pinned = true;
}

int64_t LaneMap::known_holder(const Lane& lane, const VectorClock& c) const {
  // Knowing a holder implies knowing every earlier one: the predicate
  // "c knows holder k" is true on a prefix.
  int64_t lo = 0, hi = static_cast<int64_t>(lane.holders.size()) - 1, found = -1;
  while (lo <= hi) {
    const int64_t mid = (lo + hi) / 2;
    const Holder& h = lane.holders[static_cast<size_t>(mid)];
    if (c.get(h.thread) >= h.start) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

uint64_t LaneMap::lane_value(const VectorClock& c, unsigned l) const {
  const Lane& lane = lanes_[l];
  if (lane.holders.size() == 1) {  // the common case, no recycling: no search
    const Holder& h = lane.holders.front();
    const uint64_t local = c.get(h.thread);
    return local < h.start ? 0 : h.base + (std::min(local, h.end) - h.start);
  }
  const int64_t k = known_holder(lane, c);
  if (k < 0) return 0;
  const Holder& h = lane.holders[static_cast<size_t>(k)];
  return h.base + (std::min(c.get(h.thread), h.end) - h.start);
}

// Lanes from fresh_ on were never held: their clocks are 0 in every row, so
// only the used ones are looked up (a row is built for every
// synchronization event, and most shapes have more lanes than threads).
void LaneMap::row(const VectorClock& c, std::vector<uint64_t>& out) const { row(c, out, kNoLane); }

uint64_t LaneMap::row(const VectorClock& c, std::vector<uint64_t>& out, unsigned own) const {
  out.resize(lanes_.size());
  uint64_t own_value = 0;
  if (identity_ && c.is_dense()) {  // lane l is thread l: lane_value(c, l) = c.get(l)
    const size_t n = std::min<size_t>(fresh_, c.size());
    const uint64_t* __restrict v = c.data();
    uint64_t* __restrict o = out.data();  // plain pointers: a loop the compiler can vectorize
    const uint64_t max = max_clock_;
    for (size_t l = 0; l < n; ++l) o[l] = v[l] < max ? v[l] : max;
    std::fill(o + n, o + out.size(), 0);
    return own < n ? v[own] : 0;
  }
  for (unsigned l = 0; l < fresh_; ++l) {
    const uint64_t v = lane_value(c, l);
    if (l == own) own_value = v;
    out[l] = std::min(v, max_clock_);
  }
  std::fill(out.begin() + fresh_, out.end(), 0);
  return own_value;
}

std::optional<Epoch> LaneMap::thread_epoch(unsigned l, uint64_t clock) const {
  if (l >= lanes_.size() || clock == 0) return std::nullopt;
  const auto& holders = lanes_[l].holders;
  // The last holder whose lane clocks start at or below `clock`.
  auto it = std::partition_point(holders.begin(), holders.end(), [&](const Holder& h) { return h.base <= clock; });
  if (it == holders.begin()) return std::nullopt;
  const Holder& h = *std::prev(it);
  const uint64_t local = h.start + (clock - h.base);
  if (local > h.end) return std::nullopt;
  return Epoch{h.thread, local};
}

std::optional<Epoch> LaneMap::lane_epoch(const Epoch& e) const {
  if (e.slot >= held_lane_.size() || held_lane_[e.slot] == kNoLane || e.clock == 0) return std::nullopt;
  const uint32_t l = held_lane_[e.slot];
  const Holder& h = lanes_[l].holders[holder_index_[e.slot]];
  if (e.clock < h.start || e.clock > h.end) return std::nullopt;  // checked on the host, never on chip
  const uint64_t clock = h.base + (e.clock - h.start);
  if (clock > max_clock_) return std::nullopt;
  return Epoch{l, clock};
}

std::optional<VectorClock> LaneMap::thread_clock(const std::vector<uint64_t>& row) const {
  VectorClock clock;
  for (unsigned l = 0; l < row.size(); ++l) {
    if (row[l] == 0) continue;
    const std::optional<Epoch> e = thread_epoch(l, row[l]);
    if (!e) return std::nullopt;
    clock.set(e->slot, e->clock);
  }
  return clock;
}

}  // namespace raceaccel::offload
