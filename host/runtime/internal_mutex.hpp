// The runtime's own lock: a futex mutex (Drepper's three-state design), so
// that the runtime never goes through its own pthread interceptors and never
// allocates. An uncontended lock is one atomic instruction; an uncontended
// unlock none (below).
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <ctime>

#include "runtime/hot_path.hpp"

namespace raceaccel::rt {

class InternalMutex {
 public:
  // The uncontended case inline (one locked instruction: a drain and an
  // atomic operation take two or three of these locks, and the call was a
  // tenth of a ring's CPU time); waiting out of line.
  RACEACCEL_ALWAYS_INLINE void lock() {
    int c = 0;
    if (RACEACCEL_LIKELY(state_.compare_exchange_strong(c, 1, std::memory_order_acquire))) return;
    lock_contended(c);
  }
  // Without sleepers (state 1, the common case) a plain release store: an
  // exchange is a locked instruction, a full barrier that waits for the
  // store buffer to drain, and a drain or an atomic operation unlocks two or
  // three of these locks (atomic_pipeline: 337 -> 264 ms of CPU, median of
  // 7, same run, 2-core VM).
  // A waiter can set state 2 between the load and the store; its futex wait
  // then finds 0 and returns, unless the store has not reached memory when
  // the kernel compares (this thread was preempted between the load and the
  // store, or the store is still in the core's store buffer). Such a sleeper
  // is not woken here; its wait times out (kSleepNanoseconds) and it takes
  // the lock then. Progress is kept; only that rare waiter is late.
  void unlock() {
    if (RACEACCEL_LIKELY(state_.load(std::memory_order_relaxed) == 1)) {
      state_.store(0, std::memory_order_release);
      return;
    }
    if (state_.exchange(0, std::memory_order_release) == 2) {
      syscall(SYS_futex, &state_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    }
  }
  // After fork() in the child: the lock may have been held by a thread that
  // no longer exists there.
  void reset_after_fork() { state_.store(0, std::memory_order_relaxed); }

 private:
  RACEACCEL_NOINLINE void lock_contended(int c) {
    // The checker's critical sections are short (a buffer drain, one
    // synchronization event): a contended lock is usually free again within
    // a few hundred cycles, so spin briefly before sleeping in the kernel.
    for (int spin = 0; spin < kSpins && c != 2; ++spin) {
      cpu_relax();
      c = state_.load(std::memory_order_relaxed);
      if (c == 0) {
        if (state_.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
      }
    }
    // Then give the CPU away a few times before sleeping: with more threads
    // than cores the holder is often runnable but not running, and a yield
    // lets it finish, where a futex sleep would cost two system calls and a
    // wake-up.
    for (int yield = 0; yield < kYields && c != 2; ++yield) {
      syscall(SYS_sched_yield);
      c = state_.load(std::memory_order_relaxed);
      if (c == 0 && state_.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
    }
    if (c != 2) c = state_.exchange(2, std::memory_order_acquire);
    while (c != 0) {
      // Bounded: see unlock() for the one wake-up that can be missed.
      const timespec timeout{0, kSleepNanoseconds};
      syscall(SYS_futex, &state_, FUTEX_WAIT_PRIVATE, 2, &timeout, nullptr, 0);
      c = state_.exchange(2, std::memory_order_acquire);
    }
  }
  static constexpr int kSpins = 100;
  static constexpr int kYields = 4;
  static constexpr long kSleepNanoseconds = 1'000'000;  // 1 ms
  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  std::atomic<int> state_{0};
};

class InternalLock {
 public:
  explicit InternalLock(InternalMutex& m) : m_(m) { m_.lock(); }
  ~InternalLock() { m_.unlock(); }
  InternalLock(const InternalLock&) = delete;
  InternalLock& operator=(const InternalLock&) = delete;

 private:
  InternalMutex& m_;
};

}  // namespace raceaccel::rt
