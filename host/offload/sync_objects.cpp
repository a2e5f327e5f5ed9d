#include "offload/sync_objects.hpp"

#include <algorithm>
#include <stdexcept>

namespace raceaccel::offload {

SyncObjectStore::SyncObjectStore(unsigned entries, unsigned slots, unsigned clock_bits)
    : entries_(entries), slots_(slots), max_clock_(clock_bits >= 64 ? UINT64_MAX : (uint64_t{1} << clock_bits) - 1) {}

std::vector<uint64_t> SyncObjectStore::device_lanes(const VectorClock& c) const {
  std::vector<uint64_t> lanes;
  device_lanes(c, lanes);
  return lanes;
}

void SyncObjectStore::device_lanes(const VectorClock& c, std::vector<uint64_t>& out) const {
  if (lanes_ != nullptr) return lanes_->row(c, out);
  out.resize(slots_);
  for (unsigned lane = 0; lane < slots_; ++lane) out[lane] = c.get(lane);
}

// Rows are 0 beyond the lanes ever held (LaneMap::used), so the checks
// below look at those only: with fewer threads than slots the rest of a
// row is most of it.
size_t SyncObjectStore::live(const std::vector<uint64_t>& lanes) const {
  return lanes_ != nullptr ? std::min<size_t>(lanes.size(), lanes_->used()) : lanes.size();
}

bool SyncObjectStore::fits(const std::vector<uint64_t>& lanes) const {
  return std::all_of(lanes.begin(), lanes.begin() + static_cast<std::ptrdiff_t>(live(lanes)),
                     [&](uint64_t v) { return v <= max_clock_; });
}

// Fibonacci hashing of the lock; the two sides of one lock get different
// entries unless the store is tiny.
unsigned SyncObjectStore::entry_of(uint64_t lock, bool shared) const {
  const uint64_t h = (lock * 0x9E3779B97F4A7C15ull + (shared ? 0x632BE59BD9B4E019ull : 0)) >> 32;
  return static_cast<unsigned>(h % entries_.size());
}

unsigned SyncObjectStore::place(uint64_t lock, bool shared, const std::vector<uint64_t>& value,
                                std::vector<SyncObjectCommand>& out) {
  const unsigned index = entry_of(lock, shared);
  Entry& entry = entries_[index];
  if (entry.valid && entry.lock == lock && entry.shared == shared) {
    const size_t n = live(value);
    if (entry.value.size() != value.size() ||
        !std::equal(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(n), entry.value.begin())) {
      throw std::logic_error("offload: the sync-object store's mirror diverged from the host's lock clock");
    }
    return index;
  }
  entry = {true, lock, shared, value};
  out.push_back({SyncObjectCommand::Kind::Load, index, value});
  ++stats_.loads;
  return index;
}

bool SyncObjectStore::apply_on_chip(const Event& e, uint32_t t, ReferenceSyncState& sync,
                                    std::vector<SyncObjectCommand>& out) {
  const bool acquire = e.op == Op::Acquire || e.op == Op::AcquireShared;
  const bool release = e.op == Op::Release || e.op == Op::ReleaseShared;
  if (!acquire && !release) return false;
  const uint32_t lane = lanes_ != nullptr ? lanes_->lane_of(t) : t;
  if (lane >= slots_) return false;  // its lanes are not on chip
  const uint64_t own = lanes_ != nullptr ? lanes_->lane_value(sync.clock(t), lane) : sync.local_time(t);
  if (entries_.empty() || (release && own >= max_clock_)) {
    ++stats_.in_software;  // no store, or the tick would outgrow the clock width
    return false;
  }
  // With a LaneMap the rows saturate at the width, so both sides always
  // fit and only the sides this event uses are translated (a row each):
  // an exclusive acquire joins both, the others use one. Without one, both
  // sides are checked against the width first.
  const bool saturated = lanes_ != nullptr;
  if (!saturated || e.op != Op::ReleaseShared) device_lanes(sync.lock_clock(e.addr), exclusive_);
  if (!saturated || e.op == Op::Acquire || e.op == Op::ReleaseShared) {
    const VectorClock& clock = sync.lock_shared_clock(e.addr);
    // Most locks are never read-locked: a zero clock's row is zero.
    if (clock.is_zero() && shared_.size() == slots_) {
      std::fill(shared_.begin(), shared_.end(), 0);
    } else {
      device_lanes(clock, shared_);
    }
  }
  const std::vector<uint64_t>& exclusive = exclusive_;
  const std::vector<uint64_t>& shared = shared_;
  if (!saturated && (!fits(exclusive) || !fits(shared))) {
    ++stats_.in_software;
    return false;
  }
  ++stats_.on_chip;
  const auto is_zero = [&](const std::vector<uint64_t>& lanes) {
    return std::all_of(lanes.begin(), lanes.begin() + static_cast<std::ptrdiff_t>(live(lanes)),
                       [](uint64_t v) { return v == 0; });
  };
  if (acquire) {
    // Joining a zero clock changes nothing: such acquires send nothing. Each
    // clock is placed just before its use (both sides may share an entry);
    // acquires leave lock clocks as they are, so the values stay exact.
    const auto join = [&](bool side, const std::vector<uint64_t>& value) {
      if (is_zero(value)) return;
      const unsigned index = place(e.addr, side, value, out);  // may append a load first
      out.push_back({SyncObjectCommand::Kind::Acquire, index, {}});
      ++stats_.acquires;
    };
    join(false, exclusive);
    if (e.op == Op::Acquire) join(true, shared);
    sync.apply(e);
    return true;
  }
  const bool side = e.op == Op::ReleaseShared;
  const unsigned index = place(e.addr, side, side ? shared : exclusive, out);
  out.push_back({SyncObjectCommand::Kind::Release, index, {}});
  ++stats_.releases;
  sync.apply(e);
  device_lanes(side ? sync.lock_shared_clock(e.addr) : sync.lock_clock(e.addr), entries_[index].value);
  return true;
}

void SyncObjectStore::applied_in_software(const Event& e) {
  if (entries_.empty() || (e.op != Op::Release && e.op != Op::ReleaseShared)) return;
  const bool shared = e.op == Op::ReleaseShared;
  Entry& entry = entries_[entry_of(e.addr, shared)];
  if (entry.valid && entry.lock == e.addr && entry.shared == shared) entry.valid = false;
}

void SyncObjectStore::forget_locks(const std::vector<uint64_t>& locks) {
  if (entries_.empty()) return;
  for (const uint64_t lock : locks) {
    for (const bool shared : {false, true}) {
      Entry& entry = entries_[entry_of(lock, shared)];
      if (entry.valid && entry.lock == lock && entry.shared == shared) entry.valid = false;
    }
  }
}

}  // namespace raceaccel::offload
