#include "detect/sync_state.hpp"

#include "detect/race.hpp"

namespace raceaccel {

uint32_t ReferenceSyncState::thread(ThreadId tid) {
  bool created = false;
  const uint32_t s = slots_.slot(tid, &created);
  if (created) {
    threads_.emplace_back();
    threads_[s].clock.set(s, 1);
  } else if (threads_[s].retired != kLive) {  // acts again after its join
    threads_[s].clock = retired_.restore(threads_[s].retired);
    threads_[s].retired = kLive;
  }
  return s;
}

void ReferenceSyncState::retire(uint32_t slot) {
  // The fence clocks are usually empty; they stay as they are.
  Thread& th = threads_[slot];
  th.retired = retired_.retire(th.clock);
  th.clock.release();
  if (th.release_fence.is_zero()) th.release_fence.release();
  if (th.pending_acquire.is_zero()) th.pending_acquire.release();
}

void ReferenceSyncState::increment(uint32_t slot) {
  VectorClock& c = threads_[slot].clock;
  const uint64_t now = c.get(slot);
  if (now == UINT64_MAX) throw CapacityError("clock of a thread would overflow 64 bits");
  c.set(slot, now + 1);
}

void ReferenceSyncState::apply(const Event& e) {
  const uint32_t t = thread(e.tid);
  switch (e.op) {
    case Op::Acquire: {
      const Lock& l = lock(e.addr);
      threads_[t].clock.join(l.exclusive);
      threads_[t].clock.join(l.shared);
      break;
    }
    case Op::AcquireShared: threads_[t].clock.join(lock(e.addr).exclusive); break;
    case Op::Release:
      lock(e.addr).exclusive.join(threads_[t].clock);
      increment(t);
      break;
    case Op::ReleaseShared:
      lock(e.addr).shared.join(threads_[t].clock);
      increment(t);
      break;
    case Op::Fork: {
      const uint32_t u = thread(static_cast<ThreadId>(e.addr));
      threads_[u].clock.join(threads_[t].clock);
      increment(t);
      break;
    }
    case Op::Join: {
      const uint32_t u = thread(static_cast<ThreadId>(e.addr));
      threads_[t].clock.join(threads_[u].clock);
      increment(u);
      if (retire_joined_ && u != t) retire(u);
      break;
    }
    case Op::BarrierEnter: {
      Barrier& b = barriers_[e.addr];
      b.arrived.join(threads_[t].clock);
      b.entered_round[t] = b.round;
      increment(t);
      break;
    }
    case Op::BarrierExit: {
      Barrier& b = barriers_[e.addr];
      auto it = b.entered_round.find(t);
      // The first thread to leave closes the round it entered.
      if (it != b.entered_round.end() && it->second == b.round) {
        b.released = b.arrived;
        b.arrived.clear();
        ++b.round;
      }
      if (it != b.entered_round.end()) b.entered_round.erase(it);
      threads_[t].clock.join(b.released);
      break;
    }
    case Op::AtomicLoad:
    case Op::AtomicStore:
    case Op::AtomicRmw:
      atomic_acquire(e);
      atomic_release(e);
      break;
    case Op::Fence:
      if (acquires(e.order)) {
        threads_[t].clock.join(threads_[t].pending_acquire);
        threads_[t].pending_acquire.clear();
      }
      if (releases(e.order)) {
        threads_[t].release_fence = threads_[t].clock;
        increment(t);
      }
      break;
    default: break;  // accesses, alloc/free, begin/end: no happens-before
  }
}

void ReferenceSyncState::atomic_acquire(const Event& e) {
  if (e.op != Op::AtomicLoad && e.op != Op::AtomicRmw) return;  // a store has no load part
  const uint32_t t = thread(e.tid);
  const auto found = atomics_.find(e.addr);
  if (found == atomics_.end()) return;
  if (acquires(e.order)) {
    threads_[t].clock.join(found->second);
  } else {
    threads_[t].pending_acquire.join(found->second);
  }
}

void ReferenceSyncState::atomic_release(const Event& e) {
  const uint32_t t = thread(e.tid);
  if (e.op == Op::AtomicStore) {
    // A store starts a new release sequence: it replaces the location's clock.
    if (releases(e.order)) {
      atomics_[e.addr] = threads_[t].clock;
      increment(t);
    } else {
      atomics_[e.addr] = threads_[t].release_fence;
    }
  } else if (e.op == Op::AtomicRmw) {
    // A read-modify-write continues the release sequence it reads from.
    VectorClock& loc = atomics_[e.addr];
    if (releases(e.order)) {
      loc.join(threads_[t].clock);
      increment(t);
    } else {
      loc.join(threads_[t].release_fence);
    }
  }
}

ReferenceSyncState::Lock& ReferenceSyncState::lock(uint64_t id) {
  auto [it, added] = locks_.try_emplace(id);
  if (added) lock_ids_.insert(id);
  return it->second;
}

const std::vector<uint64_t>& ReferenceSyncState::forget(uint64_t addr, uint64_t size) {
  if (size != 0) atomics_.erase(atomics_.lower_bound(addr), atomics_.upper_bound(addr + (size - 1)));
  return forget_locks(addr, size);
}

const std::vector<uint64_t>& ReferenceSyncState::forget_locks(uint64_t addr, uint64_t size) {
  forgotten_.clear();
  if (size == 0) return forgotten_;  // free(NULL): nothing to forget
  const uint64_t last = addr + (size - 1);
  const auto first = lock_ids_.lower_bound(addr), end = lock_ids_.upper_bound(last);
  for (auto it = first; it != end; ++it) {
    locks_.erase(*it);
    forgotten_.push_back(*it);
  }
  lock_ids_.erase(first, end);
  return forgotten_;
}

namespace {
const VectorClock kNoClock;  // an unknown lock's clocks
}  // namespace

const VectorClock& ReferenceSyncState::lock_clock(uint64_t id) const {
  auto it = locks_.find(id);
  return it == locks_.end() ? kNoClock : it->second.exclusive;
}

const VectorClock& ReferenceSyncState::lock_shared_clock(uint64_t id) const {
  auto it = locks_.find(id);
  return it == locks_.end() ? kNoClock : it->second.shared;
}

size_t ReferenceSyncState::thread_clock_bytes() const {
  size_t n = retired_.heap_bytes();
  for (const Thread& th : threads_) {
    n += th.clock.heap_bytes() + th.release_fence.heap_bytes() + th.pending_acquire.heap_bytes();
  }
  return n;
}

}  // namespace raceaccel
