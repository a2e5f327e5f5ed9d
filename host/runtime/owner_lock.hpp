// A lock that one thread takes at nearly every synchronization event and
// other threads take rarely: a thread's drain lock (ThreadState::drain),
// which its own drains and synchronization events take, and only the exit
// path, statistics and fork take from another thread.
//
// The owner's lock and unlock are plain stores and a load, no locked
// instruction (each of those is a full barrier that waits for the store
// buffer to drain; a drain or an atomic operation took the drain lock once
// and the owner lock pays nothing for it now). The exclusion is Dekker's:
// the owner announces itself (busy) and then looks for a revocation; another
// thread announces a revocation and then looks for the owner. Each side's
// store must be visible before its load. The owner issues no fence; the
// other thread makes every running thread of the process execute one with
// membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) (an asymmetric fence, as
// liburcu and folly use it), so either the owner's `busy` is visible to the
// other thread's load, or the revocation is visible to the owner's load.
// An owner that sees a revocation falls back to the mutex, which the other
// thread holds until it is done. Without membarrier (an old kernel; the
// registration failed) every side takes the mutex.
#pragma once

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "runtime/hot_path.hpp"
#include "runtime/internal_mutex.hpp"

namespace raceaccel::rt {

class OwnerLock {
 public:
  // Registers the process for membarrier; false: owners take the mutex too.
  // Called at start-up (before the checker is shared), and in a fork child
  // before it creates threads (the registration is the address space's, and
  // the child's is new): never while some OwnerLock is held, since a holder
  // that locked without the bias would not be seen by an owner with it.
  static bool enable_bias() {
    const bool ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    bias_.store(ok, std::memory_order_relaxed);
    return ok;
  }
  static bool biased() { return bias_.load(std::memory_order_relaxed); }
  // Tests: what a kernel without membarrier gets (never while a lock is held).
  static void disable_bias_for_test() { bias_.store(false, std::memory_order_relaxed); }

  // By the owner thread only.
  RACEACCEL_ALWAYS_INLINE void lock_by_owner() {
    if (RACEACCEL_LIKELY(biased())) {
      busy_.store(true, std::memory_order_relaxed);
      // The compiler must not move the load above the store; the CPU fence
      // is the other thread's membarrier.
      std::atomic_signal_fence(std::memory_order_seq_cst);
      if (RACEACCEL_LIKELY(!revoked_.load(std::memory_order_acquire))) return;
      busy_.store(false, std::memory_order_release);
    }
    mu_.lock();
    by_mutex_ = true;
  }
  RACEACCEL_ALWAYS_INLINE void unlock_by_owner() {
    if (RACEACCEL_UNLIKELY(by_mutex_)) {
      by_mutex_ = false;
      mu_.unlock();
      return;
    }
    busy_.store(false, std::memory_order_release);
  }

  // By any other thread (and by the owner outside its own drains: fork).
  void lock() {
    mu_.lock();
    if (!biased()) return;
    revoked_.store(true, std::memory_order_relaxed);
    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    while (busy_.load(std::memory_order_acquire)) sched_yield();
  }
  void unlock() {
    revoked_.store(false, std::memory_order_release);
    mu_.unlock();
  }

  // In a fork child: the threads that held or announced it are gone.
  void reset_after_fork() {
    mu_.reset_after_fork();
    busy_.store(false, std::memory_order_relaxed);
    revoked_.store(false, std::memory_order_relaxed);
    by_mutex_ = false;
  }

 private:
  static inline std::atomic<bool> bias_{false};
  InternalMutex mu_;
  std::atomic<bool> busy_{false};     // the owner is inside (biased)
  std::atomic<bool> revoked_{false};  // another thread holds or is taking the lock
  bool by_mutex_ = false;             // the owner holds mu_ (its own field)
};

// RAII for the owner.
class OwnerLockGuard {
 public:
  explicit OwnerLockGuard(OwnerLock& l) : l_(l) { l_.lock_by_owner(); }
  ~OwnerLockGuard() { l_.unlock_by_owner(); }
  OwnerLockGuard(const OwnerLockGuard&) = delete;
  OwnerLockGuard& operator=(const OwnerLockGuard&) = delete;

 private:
  OwnerLock& l_;
};

}  // namespace raceaccel::rt
