// The memory of finished threads' states, kept for the next threads
// (docs/runtime.md, "Threads, start-up and exit").
//
// A ThreadState is a 1.1 MiB mapping (its region table is most of it,
// touched only as far as the thread's data reaches). Mapping one per thread
// and unmapping it at the thread's end cost a program that starts a thread
// per task a page fault for every page the thread touches, and the unmap a
// TLB shootdown on every core (thread_per_task: 1.23-1.44 s of system time,
// 0.37-0.48 s with the pool). The pool keeps up to kKept finished states'
// memory, pages still mapped, and hands them to new threads.
//
// What a kept state must not carry over is the finished thread's region
// table: its entries say which lines that thread touched in which of its
// regions, and a new thread whose region had the same generation would take
// them as its own (an access decided as covered, unchecked: a race lost).
// So a kept state remembers the generation its thread had reached, and the
// next thread starts above it: every entry left in the table is older than
// any region of the new thread. Everything before the table is zeroed, as a
// fresh mapping is, so every other field starts as it always did.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/internal_mutex.hpp"

namespace raceaccel::rt {

class ThreadStatePool {
 public:
  static constexpr unsigned kKept = 8;
  struct Block {
    void* memory = nullptr;  // nullptr: no memory (mmap failed)
    // The region generation the new thread starts at: every region-table
    // entry in the block has a smaller one.
    uint64_t generation = 1;
  };
  // Memory for a ThreadState of `bytes`: a kept block, or a fresh zeroed
  // mapping (generation 1).
  Block take(size_t bytes);
  // A finished thread's state (destroyed) whose first zero_bytes (all but
  // its region table) may be cleared, and the generation its thread last
  // used: kept, or unmapped when kKept blocks are kept already.
  void give(void* memory, size_t bytes, size_t zero_bytes, uint64_t last_generation);

  // fork(): the child may create threads while the parent's lock holder is gone.
  void lock_for_fork() { mu_.lock(); }
  void unlock_after_fork() { mu_.unlock(); }

 private:
  InternalMutex mu_;
  Block kept_[kKept];
  unsigned count_ = 0;
};

}  // namespace raceaccel::rt
