// FastTrack's synchronization state (Fig. 4 plus the extensions in
// docs/event-model.md), coded independently of ReferenceSyncState so that the
// differential test compares two implementations of the same rules.
// Clocks are VectorClocks (dense or sparse, docs/detectors.md "Memory");
// the access path reads the current thread's clock as a flat array through
// dense_view(). A joined thread's clocks are retired (RetiredClocks), and
// its slot goes to a thread forked later by a thread ordered after the join
// ("Slots of joined threads" in docs/detectors.md), so a program that
// creates and joins threads one after the other keeps its clocks as small
// as its live threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "core/retired_clocks.hpp"
#include "core/thread_slots.hpp"
#include "core/vector_clock.hpp"

namespace raceaccel {

class FastTrackSync {
 public:
  using Clock = VectorClock;
  // C_t as a flat array: values by slot, zero from len on.
  struct DenseView {
    const uint64_t* clock;
    size_t len;
  };

  // Creates C_t = inc_t(⊥) on first sight; restores a retired (joined) thread.
  uint32_t thread(ThreadId tid) {
    // Consecutive events mostly come from one thread (the runtime drains a
    // thread's buffer at once): a repeat skips the slot lookup, inline.
    if (tid == last_tid_ && last_slot_ != kNoSlot) [[likely]]
      return last_slot_;
    return thread_lookup(tid);
  }
  const Clock& clock(uint32_t slot) const { return threads_[slot].clock; }
  // The clock of slot as a flat array, valid until the next apply() or thread().
  DenseView dense_view(uint32_t slot) {
    const Clock& c = threads_[slot].clock;
    if (c.is_dense()) return {c.data(), c.size()};
    return scratch_view(slot);
  }
  uint64_t packed_epoch(uint32_t slot) const { return threads_[slot].epoch; }
  // The thread whose event had the epoch `clock` in `slot`, and that
  // event's clock as the thread would have counted it in a slot of its own
  // (the golden detector's numbers): what a race names.
  struct Occupant {
    ThreadId tid;
    uint64_t clock;
  };
  Occupant occupant(uint32_t slot, uint64_t clock) const;

  void apply(const Event& e, uint32_t t);
  // An atomic event's two halves; its access is checked between them
  // (docs/event-model.md). apply() runs both.
  void atomic_acquire(const Event& e, uint32_t t);
  void atomic_release(const Event& e, uint32_t t);
  // Alloc/free of [addr, addr+size): forgets the atomic release clocks and
  // lock clocks of the objects there (ReferenceSyncState::forget).
  void forget(uint64_t addr, uint64_t size);
  // Destroy of [addr, addr+size): the lock clocks alone
  // (ReferenceSyncState::forget_locks).
  void forget_locks(uint64_t addr, uint64_t size);
  // A checker that keeps each running thread's clocks itself (the runtime's
  // parallel checking) hands them in before an event applied here that reads
  // or changes them, and takes them back after it.
  void put_thread(uint32_t slot, const Clock& clock, const Clock& release_fence, const Clock& pending_acquire);
  void get_thread(uint32_t slot, Clock& clock, Clock& release_fence, Clock& pending_acquire) const;
  // The thread of slot ended (the runtime saw it exit): its clock is kept
  // retired, as at a join, until a join (or a forked child taking over the
  // finished threads) reads it. Threads that end unjoined, detached ones
  // above all, then cost little each instead of a clock with an entry per
  // thread they knew of. Not a join: the slot is not offered for reuse.
  void retire_ended(uint32_t slot);
  // Heap bytes of the thread clocks, live and retired (tests watch the memory).
  size_t thread_clock_bytes() const;
  uint32_t thread_slots() const { return slots_.count(); }
  void set_slot_reuse(bool on) { reuse_slots_ = on; }
  uint64_t slot_reuses() const { return slot_reuses_; }

 private:
  struct Thread {
    Clock clock;
    uint64_t epoch = 0;  // packed E_t, kept in step with clock[slot]
    Clock release_fence;
    Clock pending_acquire;
    uint32_t retired = kLive;    // or the RetiredClocks id of clock
    uint32_t open_barriers = 0;  // barriers it entered and has not left (its slot is not reused then)
  };
  static constexpr uint32_t kLive = UINT32_MAX;
  // One thread's time in a reused slot: from clock `start` on, the slot's
  // epochs are tid's, whose own count was `natural` at `start`.
  struct Incarnation {
    uint64_t start;
    ThreadId tid;
    uint64_t natural;
  };
  // A joined thread whose slot went to another thread: where its clocks
  // are, should it act again (the event model allows it).
  struct Displaced {
    uint32_t retired;  // RetiredClocks id
    uint64_t own;      // its own count when it left the slot (as occupant() gives it)
  };
  // A lock's clocks: the last exclusive release's, and the join of its
  // shared releases since (read-write locks only, so kept out of line:
  // programs with a lock per object have hundreds of thousands of locks,
  // and a node of the map is then 64 bytes instead of 96).
  struct LockClocks {
    Clock exclusive;
    std::unique_ptr<Clock> shared;
  };
  struct BarrierRounds {
    uint64_t round = 0;
    Clock arrived, released;
    std::unordered_map<uint32_t, uint64_t> entered_round;
  };

  static void join(Clock& into, const Clock& from) { into.join(from); }
  uint32_t thread_lookup(ThreadId tid);  // thread() for another thread than the last
  // The slot of a forked thread: a joined thread's slot when the forking
  // thread is ordered after that join, else thread(child).
  uint32_t fork_slot(ThreadId child, uint32_t parent);
  void tick(uint32_t slot);
  void retire(uint32_t slot);  // at a join: the slot may be reused
  void store_retired(uint32_t slot);
  DenseView scratch_view(uint32_t slot);

  ThreadSlots slots_;
  static constexpr uint32_t kNoSlot = ~uint32_t{0};
  ThreadId last_tid_ = 0;  // the last thread() lookup, a cache
  uint32_t last_slot_ = kNoSlot;
  std::vector<Thread> threads_;
  LockClocks& lock(uint64_t id);  // made empty on first use
  std::unordered_map<uint64_t, LockClocks> locks_;
  std::set<uint64_t> lock_ids_;  // the keys of locks_, ordered: a free finds the locks in its range
  std::unordered_map<uint64_t, BarrierRounds> barriers_;
  std::map<uint64_t, Clock> atomics_;
  RetiredClocks retired_;
  std::vector<uint32_t> reusable_;  // slots retired by a join, newest last (some may be live again)
  std::unordered_map<uint32_t, std::vector<Incarnation>> incarnations_;  // slots with another occupant than their first
  std::unordered_map<ThreadId, Displaced> displaced_;
  uint64_t slot_reuses_ = 0;
  bool reuse_slots_ = true;
  // A sparse clock spread out for the access path: scratch_ holds the
  // clock of scratch_slot_ (zero elsewhere) until the next clock change.
  std::vector<uint64_t> scratch_;
  uint32_t scratch_slot_ = kNoSlot;
  std::vector<uint32_t> scratch_set_;  // the slots non-zero in scratch_
};

}  // namespace raceaccel
