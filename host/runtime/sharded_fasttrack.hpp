// FastTrack for parallel checking (docs/runtime.md, "Parallel checking").
//
// The serial checker feeds one FastTrackDetector under one lock, so threads
// never check at the same time. Here FastTrack's state is split by what
// each part belongs to, and each part has its own lock, as FIB splits
// checking per location:
//
//  - a thread's clocks (C_t, and the fence clocks of docs/event-model.md)
//    belong to the thread (ClockView): only its own events change them, so
//    its checks and its synchronization read them without any lock;
//  - shadow memory and the clocks of atomic locations: 4 KiB blocks spread
//    over kShards memory-only FastTrackDetectors, each behind its lock;
//  - the clocks of locks (mutexes, read-write locks, condition variables,
//    semaphores, annotations): kStripes tables by address, each with a lock;
//  - what relates threads to each other (fork, join, barriers, thread
//    slots) stays in one FastTrackSync behind the global lock: those events
//    are rare, and hand the thread's clocks in and take them back.
//
// Each event applies exactly FastTrack's rule for it (FastTrackSync's and
// FastTrackDetector's code or the same rule on the same clocks); only the
// place the clocks live differs.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/vector_clock.hpp"
#include "detect/fasttrack.hpp"
#include "detect/fasttrack_sync.hpp"
#include "runtime/internal_mutex.hpp"
#include "runtime/lock_table.hpp"

namespace raceaccel::rt {

// A thread's FastTrack clocks, owned by the thread (ThreadState::view):
// changed only by its own events, under its drain lock.
struct ClockView {
  static constexpr uint32_t kNone = ~uint32_t{0};
  uint32_t slot = kNone;  // none until the thread's first event is checked
  uint64_t epoch = 0;     // packed E_t
  VectorClock own;        // C_t
  VectorClock release_fence, pending_acquire;
  // C_t spread out by slot for the access checks (FastTrackDetector::ThreadView).
  std::vector<uint64_t> clock;
  std::vector<uint32_t> nonzero;  // the slots set in clock
  FastTrackDetector::ThreadView view() const { return {slot, clock.data(), clock.size(), epoch}; }
  bool started() const { return slot != kNone; }
};

class ShardedFastTrack {
 public:
  static constexpr unsigned kShards = 64;
  // A shard owns whole 4 KiB blocks, the shadow's pages (smaller blocks
  // would split a page's cell array between shards): a drain over an array
  // takes one lock per 4 KiB, while objects on different pages (three rings
  // of a pipeline allocated one after the other) lie in distinct shards.
  // 64 KiB blocks put such rings behind one lock: atomic_pipeline 502 ->
  // 398 ms of CPU with 4 KiB (median of 7, same run), the others unchanged.
  static constexpr unsigned kBlockShift = 12;
  static constexpr uint64_t kBlockBytes = uint64_t{1} << kBlockShift;
  static unsigned shard_of(uint64_t addr) {
    return static_cast<unsigned>(((addr >> kBlockShift) * 0x9E3779B97F4A7C15ull) >> 58);  // top 6 bits: 64
  }
  static constexpr unsigned kStripes = 64;
  static unsigned stripe_of(uint64_t object) {
    return static_cast<unsigned>(((object >> 3) * 0x9E3779B97F4A7C15ull) >> 58);
  }

  // max_runs: FastTrackDetector::set_max_runs of every shard.
  explicit ShardedFastTrack(bool reuse_slots = true, uint32_t max_runs = Shadow::kDefaultMaxRuns);

  // Holds at most one shard's lock at a time, switching as the accesses
  // move between blocks (a drain keeps the lock of a block while it stays
  // there).
  class Cursor {
   public:
    explicit Cursor(ShardedFastTrack& ft) : ft_(ft) {}
    ~Cursor() { release(); }
    Cursor(const Cursor&) = delete;
    Cursor& operator=(const Cursor&) = delete;
    FastTrackDetector& at(unsigned shard) {
      if (shard != held_) {
        release();
        ft_.shards_[shard].mu.lock();
        held_ = shard;
      }
      return ft_.shards_[shard].memory;
    }
    void release() {
      if (held_ != kNoShard) ft_.shards_[held_].mu.unlock();
      held_ = kNoShard;
    }

   private:
    static constexpr unsigned kNoShard = ~0u;
    ShardedFastTrack& ft_;
    unsigned held_ = kNoShard;
  };

  // Makes the view of thread tid (its clocks as fork left them); before
  // its first check or synchronization.
  void start(ThreadId tid, ClockView& view);
  // The thread is gone: its clocks go to the global state, where a join
  // reads them.
  void finish(const ClockView& view);

  // A Read or Write by the view's thread, checked block by block in the
  // shards (their locks taken through the cursor); races go to found, with
  // the earlier access's slot in prev_tid and its clock in that slot in
  // prev_clock (tids_of translates both: slots of joined threads are reused).
  void access(const Event& e, uint64_t index, const ClockView& view, Cursor& cursor, std::vector<Race>& found);
  // A synchronization event of the view's thread (not an atomic access),
  // or its Alloc/Free, under the lock it needs.
  void sync(const Event& e, ClockView& view);
  // A lock operation on object is about to happen: starts loading its
  // lock-table slot (LockTable::prefetch; no lock taken).
  void prefetch_lock(uint64_t object) const { stripes_[stripe_of(object)].locks.prefetch(object); }
  // Atomic accesses: the caller holds addr's shard lock (lock_atomic,
  // through a cursor that may hold it already) across the real operation
  // and atomic_locked(), so the atomics of a location are checked in the
  // order they took effect; the view must be started (start()).
  void lock_atomic(Cursor& cursor, uint64_t addr) { cursor.at(shard_of(addr)); }
  void atomic_locked(const Event& e, uint64_t index, ClockView& view, std::vector<Race>& found);
  // Races' prev_tid and prev_clock: a slot and its clock to the thread and
  // its own count (FastTrackSync::occupant).
  void tids_of(std::vector<Race>& races);
  // Thread clock slots in use (joined threads' slots are reused).
  uint32_t thread_slots();

  // fork(): every lock, so that no check is half done in the child.
  void lock_all();
  void unlock_all();

 private:
  struct alignas(64) Shard {
    InternalMutex mu;
    FastTrackDetector memory;
    std::map<uint64_t, VectorClock> atomics;  // the clocks of atomic locations (FastTrackSync::atomics_)
  };
  struct alignas(64) Stripe {
    InternalMutex mu;
    LockTable locks;
  };
  // Where the locks are, for a free to find those in its range (their
  // clocks go with their memory: FastTrackSync::forget): the lock addresses
  // of each page, in kParts parts by page hash, each behind its own lock (a
  // leaf: taken under a stripe's lock when a lock is made, alone when a
  // free takes addresses out), and a bit per page hash set once a lock was
  // made on such a page, read without a lock, so that a free of a few pages
  // that never held a lock costs a few loads (a bit set late is harmless:
  // the lock was made after the free began, so it is not in the freed
  // memory's past). By page, not one ordered set: chase makes 200,000
  // locks, and their inserts into one tree behind one lock were 16 % of its
  // CPU time.
  struct LockIndex {
    static constexpr unsigned kPageBits = 1u << 16;
    static constexpr unsigned kParts = 64;
    struct alignas(64) Part {
      InternalMutex mu;
      std::unordered_map<uint64_t, std::vector<uint64_t>> by_page;  // page -> the lock addresses on it
    };
    std::array<std::atomic<uint64_t>, kPageBits / 64> pages{};
    std::array<Part, kParts> parts;
    static unsigned bit_of(uint64_t page) {
      return static_cast<unsigned>((page * 0x9E3779B97F4A7C15ull) >> 48);  // top 16 bits
    }
    static unsigned part_of(uint64_t page) {
      return static_cast<unsigned>((page * 0xC2B2AE3D27D4EB4Full) >> 58);  // top 6 bits: 64
    }
    void add(uint64_t addr);
    // Takes out (and returns) the addresses in [addr, last].
    std::vector<uint64_t> take(uint64_t addr, uint64_t last);
    bool maybe_in(uint64_t addr, uint64_t last) const;
    void lock_all();
    void unlock_all();
  };
  void lock_event(const Event& e, ClockView& view);
  void global_event(const Event& e, ClockView& view);
  void forget(uint64_t addr, uint64_t size);
  void forget_memory(uint64_t addr, uint64_t size);
  void forget_locks(uint64_t addr, uint64_t size);
  static void spread(ClockView& view);
  static void tick(ClockView& view);
  // C_t := C_t ⊔ from (spread again when it changed).
  static void acquire(ClockView& view, const VectorClock& from);

  InternalMutex global_mu_;
  FastTrackSync global_;
  std::array<Shard, kShards> shards_;
  std::array<Stripe, kStripes> stripes_;
  LockIndex lock_index_;
};

}  // namespace raceaccel::rt
