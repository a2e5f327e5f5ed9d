#include "gen/generator.hpp"

#include <fmt/format.h>
#include <algorithm>

namespace raceaccel {
namespace {

// Disjoint address regions, one per pattern.
constexpr uint64_t kLocalBase = 0x1000'0000;   // + thread * 0x1000
constexpr uint64_t kLockedBase = 0x2000'0000;  // + lock * 0x100
constexpr uint64_t kSharedBase = 0x3000'0000;
constexpr uint64_t kRacyBase = 0x4000'0000;
constexpr uint64_t kChannelData = 0x5000'0000;  // + channel * 0x10'0000 + generation * 0x40
constexpr uint64_t kChannelFlag = 0x5800'0000;  // + channel * 8
constexpr uint64_t kCounter = 0x5900'0000;
constexpr uint64_t kMixedBase = 0x5A00'0000;  // + variable * 16: atomic and plain accesses (atomic_mixing)
constexpr uint64_t kMixedVariables = 4;
constexpr uint64_t kRwBase = 0x6000'0000;
constexpr uint64_t kBarrierBase = 0x7000'0000;
constexpr uint64_t kHeapBase = 0x8000'0000;  // blocks of 0x100
constexpr uint64_t kRegion = 64;
constexpr uint64_t kRwLock = 1'000'000;  // sync object ids beyond the mutexes
constexpr uint64_t kBarrier = 2'000'000;
constexpr uint32_t kChannels = 4;

enum SitePattern : uint32_t {
  kSiteLocal = 1,
  kSiteLocked,
  kSiteShared,
  kSiteRacy,
  kSiteRw,
  kSiteChannel,
  kSiteBarrier,
  kSiteHeap,
  kSiteSync,
  kSiteMixed
};

}  // namespace

TraceGenerator::TraceGenerator(const GeneratorOptions& options)
    : o_(options),
      rng_(options.seed),
      threads_(std::max<uint32_t>(options.threads, 1)),
      lock_owner_(std::max<uint32_t>(options.locks, 1), -1),
      channels_(kChannels) {
  o_.threads = static_cast<uint32_t>(threads_.size());
  o_.locks = static_cast<uint32_t>(lock_owner_.size());
  threads_[0].started = true;
  // The main thread initializes the read-shared data before forking anyone.
  for (uint64_t off = 0; off < kRegion; off += 8) {
    if (o_.std_only) {
      emit(Event::write(0, name_location(kSharedBase + off), 1, site(kSiteShared, 0)));
    } else {
      emit(Event::write(0, kSharedBase + off, 8, site(kSiteShared, 0)));
    }
  }
}

uint64_t TraceGenerator::name_location(uint64_t addr) {
  if (symbols_.find(SymbolKind::Location, addr) == nullptr) {
    symbols_.set(SymbolKind::Location, addr, fmt::format("V{:x}", addr));
  }
  return addr;
}

uint64_t TraceGenerator::site(uint32_t pattern, uint32_t t) { return pattern * 1000 + (t % 10) * 10 + rand(4); }

void TraceGenerator::emit(const Event& e) { pending_.push_back(e); }

bool TraceGenerator::next(Event& event) {
  if (produced_ >= o_.events) return false;
  while (pending_pos_ >= pending_.size()) {
    pending_.clear();
    pending_pos_ = 0;
    step();
  }
  event = pending_[pending_pos_++];
  ++produced_;
  return true;
}

Event TraceGenerator::access(uint32_t t, uint64_t base, uint64_t region, bool write) {
  uint64_t size;
  uint64_t offset;
  if (o_.std_only) {
    size = 1;
    offset = rand(std::min<uint64_t>(region, 16));
    const uint64_t a = name_location(base + offset);
    return write ? Event::write(t, a, 1) : Event::read(t, a, 1);
  }
  const uint64_t pick = rand(100);
  if (pick < 10) {
    size = 1;
  } else if (pick < 25) {
    size = 2;
  } else if (pick < 55) {
    size = 4;
  } else if (pick < 90) {
    size = 8;
  } else if (pick < 95) {
    size = 16;
  } else {
    size = 3 + rand(region - 3);  // a range, as from memcpy
  }
  size = std::min(size, region);
  if (chance(85) && size <= 16) {
    offset = rand(region / size) * size;  // naturally aligned
  } else {
    offset = rand(region - size + 1);  // unaligned
  }
  return write ? Event::write(t, base + offset, size) : Event::read(t, base + offset, size);
}

void TraceGenerator::step() {
  const uint64_t reserve = uint64_t{o_.threads} * 4 + 8;
  if (!joining_ && produced_ + pending_.size() + reserve >= o_.events) joining_ = true;

  if (joining_) {
    // Wind down: every thread leaves its critical section, then main joins it.
    while (next_join_ < forked_) {
      const uint32_t u = next_join_++;
      if (threads_[u].finished) continue;  // joined already (churn)
      release_held(u);
      threads_[u].finished = true;
      emit(Event::sync(Op::Join, 0, u, site(kSiteSync, 0)));
      return;
    }
    if (threads_[0].held_lock >= 0 || threads_[0].held_rwlock >= 0) {
      release_held(0);
      return;
    }
    // After the joins only main runs: it may touch everything.
    const uint64_t bases[] = {kRacyBase, kSharedBase, kLockedBase, kLocalBase + 0x1000};
    Event e = access(0, bases[rand(4)], kRegion, chance(50));
    e.site = site(kSiteLocal, 0);
    emit(e);
    for (auto& th : threads_) th.finished = true;
    return;
  }

  if (o_.churn) {
    if (churn_step()) return;
  } else if (forked_ < o_.threads && chance(50)) {
    const uint32_t u = forked_++;
    threads_[u].started = true;
    emit(Event::sync(Op::Fork, 0, u, site(kSiteSync, 0)));
    return;
  }
  uint32_t t;
  do {
    t = static_cast<uint32_t>(rand(forked_));
  } while (threads_[t].finished);
  step_thread(t);
}

std::vector<uint32_t> TraceGenerator::running() const {
  std::vector<uint32_t> out;
  for (uint32_t u = 0; u < forked_; ++u) {
    if (threads_[u].started && !threads_[u].finished) out.push_back(u);
  }
  return out;
}

// A fork or a join by a running thread, or a joined thread acting again;
// false when this step does none of them.
bool TraceGenerator::churn_step() {
  constexpr size_t kMaxRunning = 8;
  const std::vector<uint32_t> live = running();
  const uint64_t roll = rand(100);
  if (roll < 4 && forked_ < o_.threads && live.size() < kMaxRunning) {
    const uint32_t parent = live[rand(live.size())];
    const uint32_t u = forked_++;
    threads_[u].started = true;
    emit(Event::sync(Op::Fork, parent, u, site(kSiteSync, parent)));
    return true;
  }
  if (roll < 7 && live.size() > 2) {
    const uint32_t u = live[1 + rand(live.size() - 1)];  // never main
    uint32_t joiner;
    do {
      joiner = live[rand(live.size())];
    } while (joiner == u);
    release_held(u);
    threads_[u].finished = true;
    emit(Event::sync(Op::Join, joiner, u, site(kSiteSync, joiner)));
    return true;
  }
  if (roll == 8 && o_.atomic_mixing) {
    // A fence, so that relaxed atomics carry clocks (a reused slot's
    // thread must start without the old thread's release fence).
    const MemoryOrder orders[] = {MemoryOrder::Acquire, MemoryOrder::Release, MemoryOrder::AcqRel};
    const uint32_t t = live[rand(live.size())];
    emit(Event::fence(t, orders[rand(3)], site(kSiteMixed, t)));
    return true;
  }
  if (roll == 7 && chance(o_.mistake_percent * 10)) {
    // A joined thread touches its own page again, or the racy region.
    std::vector<uint32_t> joined;
    for (uint32_t u = 1; u < forked_; ++u) {
      if (threads_[u].finished) joined.push_back(u);
    }
    if (joined.empty()) return false;
    const uint32_t u = joined[rand(joined.size())];
    Event e = chance(50) ? access(u, kLocalBase + uint64_t{u} * 0x1000, kRegion, chance(50))
                         : access(u, kRacyBase, kRegion, chance(50));
    e.site = site(kSiteLocal, u);
    emit(e);
    return true;
  }
  return false;
}

void TraceGenerator::step_thread(uint32_t t) {
  ThreadState& th = threads_[t];
  if (th.held_lock >= 0) {
    critical_section_access(t);
    if (--th.section_left == 0) {
      emit(Event::sync(Op::Release, t, static_cast<uint64_t>(th.held_lock), site(kSiteLocked, t)));
      lock_owner_[static_cast<size_t>(th.held_lock)] = -1;
      th.held_lock = -1;
    }
    return;
  }
  if (th.held_rwlock >= 0) {
    const bool exclusive = th.held_rwlock == 1;
    // A write under the read lock is the classic rwlock mistake.
    const bool write = exclusive ? chance(70) : chance(o_.mistake_percent);
    Event e = access(t, kRwBase, kRegion, write);
    e.site = site(kSiteRw, t);
    emit(e);
    emit(Event::sync(exclusive ? Op::Release : Op::ReleaseShared, t, kRwLock, site(kSiteRw, t)));
    if (exclusive)
      rwlock_writer_ = -1;
    else
      --rwlock_readers_;
    th.held_rwlock = -1;
    return;
  }

  const uint32_t extras_weight = o_.std_only ? 0 : o_.extras_weight;
  const uint32_t total = o_.local_weight + o_.locked_weight + o_.shared_weight + o_.racy_weight + extras_weight;
  uint64_t pick = rand(std::max<uint32_t>(total, 1));
  if (pick < o_.local_weight || total == 0) {
    Event e = access(t, kLocalBase + uint64_t{t} * 0x1000, kRegion, chance(50));
    e.site = site(kSiteLocal, t);
    emit(e);
    return;
  }
  pick -= o_.local_weight;
  if (pick < o_.locked_weight) {
    const uint32_t lock = static_cast<uint32_t>(rand(o_.locks));
    if (lock_owner_[lock] == -1 && o_.lock_lifecycle && !o_.std_only && chance(5)) {
      emit(Event::range(chance(50) ? Op::Destroy : Op::Free, t, lock, 1, site(kSiteLocked, t)));
      return;
    }
    if (lock_owner_[lock] == -1) {
      lock_owner_[lock] = static_cast<int>(t);
      th.held_lock = static_cast<int>(lock);
      th.section_left = 1 + static_cast<uint32_t>(rand(4));
      emit(Event::sync(Op::Acquire, t, lock, site(kSiteLocked, t)));
    } else {
      Event e = access(t, kLocalBase + uint64_t{t} * 0x1000, kRegion, true);
      e.site = site(kSiteLocal, t);
      emit(e);
    }
    return;
  }
  pick -= o_.locked_weight;
  if (pick < o_.shared_weight) {
    Event e = access(t, kSharedBase, kRegion, false);
    e.site = site(kSiteShared, t);
    emit(e);
    return;
  }
  pick -= o_.shared_weight;
  if (pick < o_.racy_weight) {
    Event e = access(t, kRacyBase, kRegion, chance(50));
    e.site = site(kSiteRacy, t);
    emit(e);
    return;
  }
  extras(t);
}

// Thread t leaves the mutex and the rwlock it holds, if any.
void TraceGenerator::release_held(uint32_t t) {
  ThreadState& th = threads_[t];
  if (th.held_lock >= 0) {
    emit(Event::sync(Op::Release, t, static_cast<uint64_t>(th.held_lock), site(kSiteLocked, t)));
    lock_owner_[static_cast<size_t>(th.held_lock)] = -1;
    th.held_lock = -1;
  }
  if (th.held_rwlock >= 0) {
    emit(Event::sync(th.held_rwlock == 0 ? Op::ReleaseShared : Op::Release, t, kRwLock, site(kSiteRw, t)));
    if (th.held_rwlock == 0) {
      --rwlock_readers_;
    } else {
      rwlock_writer_ = -1;
    }
    th.held_rwlock = -1;
  }
}

void TraceGenerator::critical_section_access(uint32_t t) {
  uint32_t lock = static_cast<uint32_t>(threads_[t].held_lock);
  if (chance(o_.mistake_percent)) lock = static_cast<uint32_t>(rand(o_.locks));  // data of a lock not held
  Event e = access(t, kLockedBase + uint64_t{lock} * 0x100, kRegion, chance(60));
  e.site = site(kSiteLocked, t);
  emit(e);
}

void TraceGenerator::barrier_round() {
  std::vector<uint32_t> members;
  for (uint32_t u = 0; u < forked_; ++u) {
    if (!threads_[u].finished) members.push_back(u);
  }
  const uint64_t barrier = kBarrier;
  std::shuffle(members.begin(), members.end(), rng_);
  for (uint32_t u : members) emit(Event::sync(Op::BarrierEnter, u, barrier, site(kSiteBarrier, u)));
  std::shuffle(members.begin(), members.end(), rng_);
  for (uint32_t u : members) emit(Event::sync(Op::BarrierExit, u, barrier, site(kSiteBarrier, u)));
  barrier_phase_owner_ = members[rand(members.size())];
  barrier_region_written_ = false;
  barrier_region_read_ = false;
  ++barrier_rounds_;
}

// Atomic and plain accesses to the same few variables, of mixed sizes and
// orders: plain-vs-atomic races, atomic-vs-atomic non-races, and release
// stores / acquire loads that order plain accesses of the variable itself.
// A free now and then gives a variable fresh history.
void TraceGenerator::mixed_access(uint32_t t) {
  const uint64_t v = kMixedBase + rand(kMixedVariables) * 16;
  const uint64_t s = site(kSiteMixed, t);
  const uint64_t roll = rand(100);
  if (roll < 4) {
    emit(Event::range(Op::Free, t, v, 16, s));
    return;
  }
  if (roll < 50) {
    const uint64_t size = chance(70) ? 8 : 4;
    const uint64_t a = size == 8 ? v : v + 4 * rand(2);
    const MemoryOrder loads[] = {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::SeqCst};
    const MemoryOrder stores[] = {MemoryOrder::Relaxed, MemoryOrder::Release, MemoryOrder::SeqCst};
    const MemoryOrder rmws[] = {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::Release, MemoryOrder::AcqRel,
                                MemoryOrder::SeqCst};
    const uint64_t kind = rand(10);
    if (kind < 5) {
      emit(Event::atomic(Op::AtomicLoad, t, a, size, loads[rand(3)], s));
    } else if (kind < 8) {
      emit(Event::atomic(Op::AtomicStore, t, a, size, stores[rand(3)], s));
    } else {
      emit(Event::atomic(Op::AtomicRmw, t, a, size, rmws[rand(5)], s));
    }
    return;
  }
  const uint64_t size = uint64_t{1} << (rand(4) == 0 ? 0 : 2 + rand(2));  // 1, 4 or 8
  const uint64_t a = v + size * rand(8 / size);
  emit(chance(30) ? Event::write(t, a, size, s) : Event::read(t, a, size, s));
}

void TraceGenerator::extras(uint32_t t) {
  ThreadState& th = threads_[t];
  switch (rand(o_.atomic_mixing ? 8 : 7)) {  // the same traces as before without atomic_mixing
    case 7: mixed_access(t); return;
    case 0: {  // rwlock
      if (rwlock_writer_ == -1 && chance(70)) {
        ++rwlock_readers_;
        th.held_rwlock = 0;
        emit(Event::sync(Op::AcquireShared, t, kRwLock, site(kSiteRw, t)));
      } else if (rwlock_writer_ == -1 && rwlock_readers_ == 0) {
        rwlock_writer_ = static_cast<int>(t);
        th.held_rwlock = 1;
        emit(Event::sync(Op::Acquire, t, kRwLock, site(kSiteRw, t)));
      }
      return;
    }
    case 1: {  // publication through an atomic flag
      const uint32_t k = static_cast<uint32_t>(rand(kChannels));
      Channel& ch = channels_[k];
      const uint64_t data = kChannelData + uint64_t{k} * 0x10'0000 + (ch.generation % 0x4000) * kRegion;
      const uint64_t flag = kChannelFlag + uint64_t{k} * 8;
      if (!ch.published) {
        if (ch.writer != -1 && ch.writer != static_cast<int>(t)) return;
        ch.writer = static_cast<int>(t);
        Event w = access(t, data, kRegion, true);
        w.site = site(kSiteChannel, t);
        emit(w);
        const uint64_t how = rand(100);
        if (how < 60) {
          emit(Event::atomic(Op::AtomicStore, t, flag, 4, chance(50) ? MemoryOrder::Release : MemoryOrder::SeqCst));
        } else if (how < 80) {
          emit(Event::fence(t, MemoryOrder::Release));
          emit(Event::atomic(Op::AtomicStore, t, flag, 4, MemoryOrder::Relaxed));
        } else if (how < 90) {
          emit(Event::atomic(Op::AtomicRmw, t, flag, 4, MemoryOrder::AcqRel));
        } else {
          emit(Event::atomic(Op::AtomicStore, t, flag, 4, MemoryOrder::Relaxed));  // publishes nothing
        }
        ch.published = true;
        return;
      }
      if (static_cast<int>(t) == ch.writer) return;
      const uint64_t how = rand(100);
      if (how < 8) {  // continue the release sequence, or break it with a plain store
        emit(Event::atomic(chance(70) ? Op::AtomicRmw : Op::AtomicStore, t, flag, 4, MemoryOrder::Relaxed));
        return;
      }
      if (how < 60) {
        emit(Event::atomic(Op::AtomicLoad, t, flag, 4, chance(80) ? MemoryOrder::Acquire : MemoryOrder::SeqCst));
      } else if (how < 85) {
        emit(Event::atomic(Op::AtomicLoad, t, flag, 4, MemoryOrder::Relaxed));
        emit(Event::fence(t, chance(50) ? MemoryOrder::Acquire : MemoryOrder::SeqCst));
      } else {
        emit(Event::atomic(Op::AtomicLoad, t, flag, 4, MemoryOrder::Relaxed));  // no acquire
      }
      Event r = access(t, data, kRegion, false);
      r.site = site(kSiteChannel, t);
      emit(r);
      if (++ch.reads >= 3 && chance(30)) {  // retire: the next writer publishes new data
        ++ch.generation;
        ch.published = false;
        ch.writer = -1;
        ch.reads = 0;
      }
      return;
    }
    case 2:
      if (chance(20)) barrier_round();
      return;
    case 3: {  // data owned by one thread per barrier phase
      const bool owner = t == barrier_phase_owner_;
      if (owner && !barrier_region_read_) {
        barrier_region_written_ = true;
        Event w = access(t, kBarrierBase, kRegion, true);
        w.site = site(kSiteBarrier, t);
        emit(w);
      } else if (!owner && !barrier_region_written_) {
        barrier_region_read_ = true;
        Event r = access(t, kBarrierBase, kRegion, false);
        r.site = site(kSiteBarrier, t);
        emit(r);
      }
      return;
    }
    case 4: {  // heap blocks: alloc, use, free; freed blocks are reused by anyone
      if (th.heap_block == 0) {
        uint64_t block;
        if (!free_heap_.empty() && chance(80)) {
          const size_t i = rand(free_heap_.size());
          block = free_heap_[i];
          free_heap_[i] = free_heap_.back();
          free_heap_.pop_back();
        } else {
          block = kHeapBase + (next_heap_++ % 0x10000) * 0x100;
        }
        th.heap_block = block;
        th.heap_uses_left = 1 + static_cast<uint32_t>(rand(6));
        emit(Event::range(Op::Alloc, t, block, kRegion, site(kSiteHeap, t)));
      } else if (th.heap_uses_left-- > 0) {
        Event e = access(t, th.heap_block, kRegion, chance(60));
        e.site = site(kSiteHeap, t);
        emit(e);
      } else {
        emit(Event::range(Op::Free, t, th.heap_block, kRegion, site(kSiteHeap, t)));
        free_heap_.push_back(th.heap_block);
        th.heap_block = 0;
      }
      return;
    }
    case 5: {  // a shared counter: atomics never race with each other
      const MemoryOrder orders[] = {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::Release,
                                    MemoryOrder::AcqRel, MemoryOrder::SeqCst};
      emit(Event::atomic(Op::AtomicRmw, t, kCounter, 8, orders[rand(5)], site(kSiteSync, t)));
      return;
    }
    default: {
      const MemoryOrder orders[] = {MemoryOrder::Acquire, MemoryOrder::Release, MemoryOrder::AcqRel,
                                    MemoryOrder::SeqCst};
      emit(Event::fence(t, orders[rand(4)], site(kSiteSync, t)));
      return;
    }
  }
}

}  // namespace raceaccel
