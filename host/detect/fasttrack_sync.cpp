#include "detect/fasttrack_sync.hpp"

#include <algorithm>
#include <utility>

#include "detect/epoch_bits.hpp"
#include "detect/race.hpp"

namespace raceaccel {

uint32_t FastTrackSync::thread_lookup(ThreadId tid) {
  bool created = false;
  const uint32_t s = slots_.slot(tid, &created);
  if (created) {
    if (s >= epoch_bits::kMaxSlots) throw CapacityError("fasttrack: more than 16,777,215 live threads in one trace");
    Thread& th = threads_.emplace_back();
    th.clock.set(s, 1);
    th.epoch = epoch_bits::pack(s, 1);
    if (auto d = displaced_.find(tid); d != displaced_.end()) {
      // A joined thread whose slot was reused acts again: its clock as at
      // its join (which holds its old own entry, so it stays ordered after
      // its earlier events), its own entry from now on in this new slot.
      th.clock = retired_.restore(d->second.retired);
      th.clock.set(s, 1);
      incarnations_[s].push_back({1, tid, d->second.own});
      displaced_.erase(d);
    }
  } else if (threads_[s].retired != kLive) {  // acts again after its join: exactly as before
    threads_[s].clock = retired_.restore(threads_[s].retired);
    threads_[s].retired = kLive;
    if (scratch_slot_ == s) scratch_slot_ = kNoSlot;
  }
  last_tid_ = tid;
  last_slot_ = s;
  return s;
}

uint32_t FastTrackSync::fork_slot(ThreadId child, uint32_t parent) {
  // Only the newest few retirements are tried, so a fork costs O(1).
  constexpr size_t kTried = 8;
  if (displaced_.contains(child)) return thread(child);
  const Clock& forker = threads_[parent].clock;
  for (size_t k = reusable_.size(), tried = 0; k > 0 && tried < kTried; --k, ++tried) {
    const uint32_t s = reusable_[k - 1];
    Thread& old = threads_[s];
    if (old.retired == kLive) {  // acted again, or already reused
      reusable_.erase(reusable_.begin() + static_cast<std::ptrdiff_t>(k - 1));
      continue;
    }
    // The join ticked the old thread to `own`; its events have epochs
    // below that, and only a join of it passes on `own - 1` or more. A
    // forker holding that much is ordered after the join, so every event
    // of the old thread happens before every event of the child: the
    // child may continue the slot (docs/detectors.md).
    const uint64_t own = epoch_bits::clock(old.epoch);
    if (old.open_barriers != 0 || forker.get(s) + 1 < own) continue;
    reusable_.erase(reusable_.begin() + static_cast<std::ptrdiff_t>(k - 1));
    const ThreadId previous = slots_.tid_of(s);
    displaced_[previous] = {old.retired, occupant(s, own).clock};  // its own count, should it act again
    std::vector<Incarnation>& history = incarnations_[s];
    if (history.empty()) history.push_back({1, previous, 1});
    // Above every value of the slot anyone holds (at most `own`), so no
    // clock counts the child's events as the old thread's.
    const uint64_t start = own + 1;
    history.push_back({start, child, 1});
    slots_.reassign(s, child);
    ++slot_reuses_;
    old = Thread{};
    old.clock.set(s, start);
    old.epoch = epoch_bits::pack(s, start);
    if (scratch_slot_ == s) scratch_slot_ = kNoSlot;
    last_slot_ = kNoSlot;  // the cache may hold the old occupant
    return s;
  }
  return thread(child);
}

FastTrackSync::Occupant FastTrackSync::occupant(uint32_t slot, uint64_t clock) const {
  const auto it = incarnations_.find(slot);
  if (it == incarnations_.end()) return {slots_.tid_of(slot), clock};
  const std::vector<Incarnation>& history = it->second;
  auto later = std::upper_bound(history.begin(), history.end(), clock,
                                [](uint64_t c, const Incarnation& i) { return c < i.start; });
  if (later == history.begin()) return {history.front().tid, clock};  // not reached: the first starts at 1
  const Incarnation& i = *std::prev(later);
  return {i.tid, i.natural + (clock - i.start)};
}

void FastTrackSync::tick(uint32_t s) {
  Thread& th = threads_[s];
  const uint64_t now = th.clock.get(s);
  if (now >= epoch_bits::kMaxClock) throw CapacityError("fasttrack: a thread clock reached 2^38 - 1");
  th.clock.set(s, now + 1);
  th.epoch = epoch_bits::pack(s, now + 1);
}

void FastTrackSync::retire(uint32_t s) {
  store_retired(s);
  reusable_.push_back(s);
}

void FastTrackSync::retire_ended(uint32_t s) {
  if (threads_[s].retired == kLive) store_retired(s);
}

void FastTrackSync::store_retired(uint32_t s) {
  Thread& th = threads_[s];
  th.retired = retired_.retire(th.clock);
  th.clock.release();
  if (th.release_fence.is_zero()) th.release_fence.release();
  if (th.pending_acquire.is_zero()) th.pending_acquire.release();
  last_slot_ = kNoSlot;  // the next thread() lookup must see the retirement
}

FastTrackSync::DenseView FastTrackSync::scratch_view(uint32_t s) {
  const Clock& c = threads_[s].clock;
  if (scratch_slot_ != s) {
    // Clear only what the previous occupant set: O(its non-zero entries).
    for (uint32_t u : scratch_set_) scratch_[u] = 0;
    scratch_set_.clear();
    if (scratch_.size() < c.size()) scratch_.resize(c.size(), 0);
    c.for_each([&](uint32_t u, uint64_t v) {
      scratch_[u] = v;
      scratch_set_.push_back(u);
    });
    scratch_slot_ = s;
  }
  return {scratch_.data(), scratch_.size()};
}

void FastTrackSync::apply(const Event& e, uint32_t t) {
  scratch_slot_ = kNoSlot;  // synchronization may change clocks
  switch (e.op) {
    case Op::Acquire: {  // [FT ACQUIRE]; a writer also orders after earlier readers
      auto it = locks_.find(e.addr);
      if (it != locks_.end()) {
        join(threads_[t].clock, it->second.exclusive);
        if (it->second.shared) join(threads_[t].clock, *it->second.shared);
      }
      break;
    }
    case Op::AcquireShared: {
      auto it = locks_.find(e.addr);
      if (it != locks_.end()) join(threads_[t].clock, it->second.exclusive);
      break;
    }
    case Op::Release:  // [FT RELEASE], as a join so unbalanced traces stay monotone
      join(lock(e.addr).exclusive, threads_[t].clock);
      tick(t);
      break;
    case Op::ReleaseShared: {
      std::unique_ptr<Clock>& shared = lock(e.addr).shared;
      if (!shared) shared = std::make_unique<Clock>();
      join(*shared, threads_[t].clock);
      tick(t);
      break;
    }
    case Op::Fork: {  // [FT FORK]
      const auto child = static_cast<ThreadId>(e.addr);
      const uint32_t u = slots_.contains(child) || !reuse_slots_ ? thread(child) : fork_slot(child, t);
      join(threads_[u].clock, threads_[t].clock);
      tick(t);
      break;
    }
    case Op::Join: {  // [FT JOIN]
      const uint32_t u = thread(static_cast<ThreadId>(e.addr));
      join(threads_[t].clock, threads_[u].clock);
      tick(u);
      if (u != t) retire(u);
      break;
    }
    case Op::BarrierEnter: {
      BarrierRounds& b = barriers_[e.addr];
      join(b.arrived, threads_[t].clock);
      if (b.entered_round.insert_or_assign(t, b.round).second) ++threads_[t].open_barriers;
      tick(t);
      break;
    }
    case Op::BarrierExit: {
      BarrierRounds& b = barriers_[e.addr];
      auto it = b.entered_round.find(t);
      if (it != b.entered_round.end()) {
        if (it->second == b.round) {  // first to leave closes the round
          std::swap(b.released, b.arrived);
          b.arrived.clear();
          ++b.round;
        }
        b.entered_round.erase(it);
        --threads_[t].open_barriers;
      }
      join(threads_[t].clock, b.released);
      break;
    }
    case Op::AtomicLoad:
    case Op::AtomicStore:
    case Op::AtomicRmw:
      atomic_acquire(e, t);
      atomic_release(e, t);
      break;
    case Op::Fence:
      if (acquires(e.order)) {
        join(threads_[t].clock, threads_[t].pending_acquire);
        threads_[t].pending_acquire.clear();
      }
      if (releases(e.order)) {
        threads_[t].release_fence = threads_[t].clock;
        tick(t);
      }
      break;
    default: break;
  }
}

void FastTrackSync::atomic_acquire(const Event& e, uint32_t t) {
  scratch_slot_ = kNoSlot;  // the acquire may change C_t: dense_view must spread it again
  if (e.op == Op::AtomicStore) return;
  auto it = atomics_.find(e.addr);
  if (it != atomics_.end()) join(acquires(e.order) ? threads_[t].clock : threads_[t].pending_acquire, it->second);
}

void FastTrackSync::atomic_release(const Event& e, uint32_t t) {
  scratch_slot_ = kNoSlot;  // the release may tick C_t
  if (e.op == Op::AtomicStore) {
    if (releases(e.order)) {
      atomics_[e.addr] = threads_[t].clock;
      tick(t);
    } else {
      atomics_[e.addr] = threads_[t].release_fence;
    }
  } else if (e.op == Op::AtomicRmw) {
    Clock& sequence = atomics_[e.addr];  // continued by the RMW
    if (releases(e.order)) {
      join(sequence, threads_[t].clock);
      tick(t);
    } else {
      join(sequence, threads_[t].release_fence);
    }
  }
}

FastTrackSync::LockClocks& FastTrackSync::lock(uint64_t id) {
  auto [it, added] = locks_.try_emplace(id);
  if (added) lock_ids_.insert(id);
  return it->second;
}

void FastTrackSync::forget(uint64_t addr, uint64_t size) {
  if (size == 0) return;  // free(NULL): nothing to forget
  atomics_.erase(atomics_.lower_bound(addr), atomics_.upper_bound(addr + (size - 1)));
  forget_locks(addr, size);
}

void FastTrackSync::forget_locks(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  const uint64_t last = addr + (size - 1);
  const auto first = lock_ids_.lower_bound(addr), end = lock_ids_.upper_bound(last);
  for (auto it = first; it != end; ++it) locks_.erase(*it);
  lock_ids_.erase(first, end);
}

void FastTrackSync::put_thread(uint32_t slot, const Clock& clock, const Clock& release_fence,
                               const Clock& pending_acquire) {
  Thread& th = threads_[slot];
  th.clock = clock;
  th.epoch = epoch_bits::pack(slot, clock.get(slot));
  th.release_fence = release_fence;
  th.pending_acquire = pending_acquire;
  if (scratch_slot_ == slot) scratch_slot_ = kNoSlot;
}

void FastTrackSync::get_thread(uint32_t slot, Clock& clock, Clock& release_fence, Clock& pending_acquire) const {
  const Thread& th = threads_[slot];
  clock = th.clock;
  release_fence = th.release_fence;
  pending_acquire = th.pending_acquire;
}

size_t FastTrackSync::thread_clock_bytes() const {
  size_t n = retired_.heap_bytes();
  for (const Thread& th : threads_) {
    n += th.clock.heap_bytes() + th.release_fence.heap_bytes() + th.pending_acquire.heap_bytes();
  }
  return n;
}

}  // namespace raceaccel
