#include "runtime/sharded_fasttrack.hpp"

#include <algorithm>
#include <stdexcept>

#include "detect/epoch_bits.hpp"
#include "detect/race.hpp"

namespace raceaccel::rt {
namespace eb = epoch_bits;

ShardedFastTrack::ShardedFastTrack(bool reuse_slots, uint32_t max_runs) {
  for (Shard& s : shards_) {
    s.memory.set_memory_only();
    s.memory.set_max_runs(max_runs);
  }
  global_.set_slot_reuse(reuse_slots);
}

void ShardedFastTrack::spread(ClockView& view) {
  for (const uint32_t u : view.nonzero) view.clock[u] = 0;
  view.nonzero.clear();
  if (view.clock.size() < view.own.size()) view.clock.resize(view.own.size(), 0);
  view.own.for_each([&](uint32_t u, uint64_t value) {
    view.clock[u] = value;
    view.nonzero.push_back(u);
  });
  view.epoch = eb::pack(view.slot, view.own.get(view.slot));
}

// FastTrackSync::tick on the thread's own clock.
void ShardedFastTrack::tick(ClockView& view) {
  const uint64_t now = view.own.get(view.slot);
  if (now >= eb::kMaxClock) throw CapacityError("fasttrack: a thread clock reached 2^38 - 1");
  view.own.set(view.slot, now + 1);
  view.clock[view.slot] = now + 1;  // C_t(t) is non-zero, so spread() made room for it
  view.epoch = eb::pack(view.slot, now + 1);
}

void ShardedFastTrack::acquire(ClockView& view, const VectorClock& from) {
  if (from.leq(view.own)) return;  // nothing new: the spread clock stays
  view.own.join(from);
  spread(view);
}

void ShardedFastTrack::start(ThreadId tid, ClockView& view) {
  InternalLock lock(global_mu_);
  view.slot = global_.thread(tid);
  global_.get_thread(view.slot, view.own, view.release_fence, view.pending_acquire);
  spread(view);
}

void ShardedFastTrack::finish(const ClockView& view) {
  if (!view.started()) return;  // its clocks are still where fork put them
  InternalLock lock(global_mu_);
  global_.put_thread(view.slot, view.own, view.release_fence, view.pending_acquire);
  global_.retire_ended(view.slot);
}

void ShardedFastTrack::access(const Event& e, uint64_t index, const ClockView& view, Cursor& cursor,
                              std::vector<Race>& found) {
  const FastTrackDetector::ThreadView v = view.view();
  // Blocks are page-aligned, so a part never splits a granule or a page:
  // each byte is checked exactly as the whole access would check it.
  uint64_t addr = e.addr;
  uint64_t left = e.size;
  while (left > 0) {
    const uint64_t n = std::min(kBlockBytes - (addr & (kBlockBytes - 1)), left);
    FastTrackDetector& memory = cursor.at(shard_of(addr));
    Event part = e;
    part.addr = addr;
    part.size = n;
    memory.access_with(part, index, v);
    if (memory.has_races()) [[unlikely]]
      memory.take_races(found);
    addr += n;
    left -= n;
  }
}

void ShardedFastTrack::sync(const Event& e, ClockView& view) {
  if (!view.started()) start(e.tid, view);
  switch (e.op) {
    case Op::Acquire:
    case Op::AcquireShared:
    case Op::Release:
    case Op::ReleaseShared: lock_event(e, view); break;
    case Op::Fence:  // the thread's own clocks only (FastTrackSync::apply)
      if (acquires(e.order)) {
        acquire(view, view.pending_acquire);
        view.pending_acquire.clear();
      }
      if (releases(e.order)) {
        view.release_fence = view.own;
        tick(view);
      }
      break;
    case Op::Alloc:
    case Op::Free: forget(e.addr, e.size); break;
    case Op::Destroy: forget_locks(e.addr, e.size); break;
    case Op::Fork:
    case Op::Join:
    case Op::BarrierEnter:
    case Op::BarrierExit: global_event(e, view); break;
    case Op::Begin:
    case Op::End: break;
    default: throw std::logic_error("ShardedFastTrack::sync: not a synchronization event");  // accesses, atomics
  }
}

// FastTrackSync::apply's rules for locks, on the lock's stripe.
void ShardedFastTrack::lock_event(const Event& e, ClockView& view) {
  Stripe& stripe = stripes_[stripe_of(e.addr)];
  InternalLock lock(stripe.mu);
  switch (e.op) {
    case Op::Acquire:  // [FT ACQUIRE]; a writer also orders after earlier readers
      if (const LockClocks* clocks = stripe.locks.find(e.addr); clocks != nullptr) {
        acquire(view, clocks->exclusive);
        if (clocks->shared) acquire(view, *clocks->shared);
      }
      break;
    case Op::AcquireShared:
      if (const LockClocks* clocks = stripe.locks.find(e.addr); clocks != nullptr) acquire(view, clocks->exclusive);
      break;
    case Op::Release: {  // [FT RELEASE], as a join so unbalanced traces stay monotone
      bool added = false;
      stripe.locks.get(e.addr, added).exclusive.join(view.own);
      if (added) lock_index_.add(e.addr);
      tick(view);
      break;
    }
    default: {  // ReleaseShared
      bool added = false;
      std::unique_ptr<VectorClock>& shared = stripe.locks.get(e.addr, added).shared;
      if (added) lock_index_.add(e.addr);
      if (!shared) shared = std::make_unique<VectorClock>();
      shared->join(view.own);
      tick(view);
      break;
    }
  }
}

// Fork, join, barriers: FastTrackSync itself, with the thread's clocks
// handed in and taken back.
void ShardedFastTrack::global_event(const Event& e, ClockView& view) {
  InternalLock lock(global_mu_);
  const uint32_t t = global_.thread(e.tid);
  global_.put_thread(t, view.own, view.release_fence, view.pending_acquire);
  global_.apply(e, t);
  global_.get_thread(t, view.own, view.release_fence, view.pending_acquire);
  spread(view);
}

// FastTrackSync::atomic_acquire and atomic_release around the access's
// check, with the location's clock in its shard.
void ShardedFastTrack::atomic_locked(const Event& e, uint64_t index, ClockView& view, std::vector<Race>& found) {
  // start() takes the global lock, which never nests in a shard's: the
  // caller starts the view before it takes the shard's lock.
  if (!view.started()) throw std::logic_error("ShardedFastTrack::atomic_locked: the thread's view is not started");
  Shard& shard = shards_[shard_of(e.addr)];
  if (e.op != Op::AtomicStore) {
    auto it = shard.atomics.find(e.addr);
    if (it != shard.atomics.end()) {
      if (acquires(e.order)) {
        acquire(view, it->second);
      } else {
        view.pending_acquire.join(it->second);
      }
    }
  }
  shard.memory.access_with(e, index, view.view());
  if (shard.memory.has_races()) [[unlikely]]
    shard.memory.take_races(found);
  if (e.op == Op::AtomicStore) {
    if (releases(e.order)) {
      shard.atomics[e.addr] = view.own;
      tick(view);
    } else {
      shard.atomics[e.addr] = view.release_fence;
    }
  } else if (e.op == Op::AtomicRmw) {
    VectorClock& sequence = shard.atomics[e.addr];  // continued by the RMW
    if (releases(e.order)) {
      sequence.join(view.own);
      tick(view);
    } else {
      sequence.join(view.release_fence);
    }
  }
}

// Alloc/Free: the bytes' shadow and their atomic clocks back to ⊥, block by
// block, then the clocks of locks in them.
void ShardedFastTrack::forget(uint64_t addr, uint64_t size) {
  forget_memory(addr, size);
  forget_locks(addr, size);
}

void ShardedFastTrack::forget_memory(uint64_t addr, uint64_t size) {
  Cursor cursor(*this);
  if (size / kBlockBytes >= kShards) {
    // A range of more blocks than there are shards (a large free, a
    // mapping reserved or unmapped): each shard forgets the whole range at
    // once, visiting only the pages it has (Shadow::clear). A shard holds
    // only its own blocks, so that forgets exactly what the walk block by
    // block would; the walk cost a lock, a shard's forget and a map probe
    // per 4 KiB (64 GiB reserved and unmapped: seconds, against nothing for
    // ThreadSanitizer).
    for (unsigned s = 0; s < kShards; ++s) {
      cursor.at(s).forget(addr, size);
      std::map<uint64_t, VectorClock>& atomics = shards_[s].atomics;
      if (!atomics.empty()) atomics.erase(atomics.lower_bound(addr), atomics.upper_bound(addr + (size - 1)));
    }
    return;
  }
  while (size > 0) {
    const uint64_t n = std::min(kBlockBytes - (addr & (kBlockBytes - 1)), size);
    const unsigned s = shard_of(addr);
    cursor.at(s).forget(addr, n);
    std::map<uint64_t, VectorClock>& atomics = shards_[s].atomics;
    if (!atomics.empty()) atomics.erase(atomics.lower_bound(addr), atomics.upper_bound(addr + (n - 1)));
    addr += n;
    size -= n;
  }
}

// Lock clocks in [addr, addr + size): the index says which locks are
// there; each is erased under its stripe's lock, one at a time, with the
// index's lock no longer held (it nests under a stripe's, when a lock
// event makes a lock, never the other way).
void ShardedFastTrack::forget_locks(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  const uint64_t last = addr + (size - 1);
  if (!lock_index_.maybe_in(addr, last)) return;
  for (const uint64_t lock : lock_index_.take(addr, last)) {
    Stripe& stripe = stripes_[stripe_of(lock)];
    InternalLock hold(stripe.mu);
    stripe.locks.erase(lock);
  }
}

void ShardedFastTrack::LockIndex::add(uint64_t addr) {
  const uint64_t page = addr >> kBlockShift;
  const unsigned bit = bit_of(page);
  pages[bit / 64].fetch_or(uint64_t{1} << (bit % 64), std::memory_order_relaxed);
  Part& part = parts[part_of(page)];
  InternalLock hold(part.mu);
  part.by_page[page].push_back(addr);
}

bool ShardedFastTrack::LockIndex::maybe_in(uint64_t addr, uint64_t last) const {
  const uint64_t first_page = addr >> kBlockShift, last_page = last >> kBlockShift;
  if (last_page - first_page >= 64) return true;  // a large free: the index decides
  for (uint64_t page = first_page;; ++page) {
    const unsigned bit = bit_of(page);
    if ((pages[bit / 64].load(std::memory_order_relaxed) >> (bit % 64)) & 1) return true;
    if (page == last_page) return false;
  }
}

std::vector<uint64_t> ShardedFastTrack::LockIndex::take(uint64_t addr, uint64_t last) {
  using ByPage = std::unordered_map<uint64_t, std::vector<uint64_t>>;
  std::vector<uint64_t> out;
  // The locks of one page that lie in the range, moved to out.
  const auto take_page = [&](ByPage& by_page, ByPage::iterator it) {
    std::vector<uint64_t>& locks = it->second;
    std::erase_if(locks, [&](uint64_t a) {
      if (a < addr || a > last) return false;
      out.push_back(a);
      return true;
    });
    if (locks.empty()) by_page.erase(it);
  };
  const uint64_t first_page = addr >> kBlockShift, last_page = last >> kBlockShift;
  if (last_page - first_page < 64) {
    for (uint64_t page = first_page;; ++page) {
      Part& part = parts[part_of(page)];
      InternalLock hold(part.mu);
      if (auto it = part.by_page.find(page); it != part.by_page.end()) take_page(part.by_page, it);
      if (page == last_page) break;
    }
    return out;
  }
  // A large free: every page the index knows, part by part.
  for (Part& part : parts) {
    InternalLock hold(part.mu);
    for (auto it = part.by_page.begin(); it != part.by_page.end();) {
      const auto here = it++;
      if (here->first >= first_page && here->first <= last_page) take_page(part.by_page, here);
    }
  }
  return out;
}

void ShardedFastTrack::LockIndex::lock_all() {
  for (Part& part : parts) part.mu.lock();
}

void ShardedFastTrack::LockIndex::unlock_all() {
  for (Part& part : parts) part.mu.unlock();
}

void ShardedFastTrack::tids_of(std::vector<Race>& races) {
  InternalLock lock(global_mu_);
  for (Race& r : races) {
    const FastTrackSync::Occupant prev = global_.occupant(r.prev_tid, r.prev_clock);
    r.prev_tid = prev.tid;
    r.prev_clock = prev.clock;
  }
}

uint32_t ShardedFastTrack::thread_slots() {
  InternalLock lock(global_mu_);
  return global_.thread_slots();
}

void ShardedFastTrack::lock_all() {
  global_mu_.lock();
  for (Shard& s : shards_) s.mu.lock();
  for (Stripe& s : stripes_) s.mu.lock();
  lock_index_.lock_all();
}

void ShardedFastTrack::unlock_all() {
  lock_index_.unlock_all();
  for (Stripe& s : stripes_) s.mu.unlock();
  for (Shard& s : shards_) s.mu.unlock();
  global_mu_.unlock();
}

}  // namespace raceaccel::rt
