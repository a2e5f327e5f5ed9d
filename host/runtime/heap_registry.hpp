// Live heap blocks, for the "Location is heap block ..." part of reports:
// size, allocating thread and allocation stack, found from any interior
// address.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>

#include "core/event.hpp"
#include "runtime/internal_mutex.hpp"

namespace raceaccel::rt {

struct HeapBlock {
  uint64_t addr = 0;
  uint64_t size = 0;  // as requested
  ThreadId tid = 0;
  uint32_t node = 0;  // allocating call stack
  uint64_t pc = 0;    // return address of the allocation call
};

class HeapRegistry {
 public:
  // Blocks freed where the runtime did not see it (inside libc, or while the
  // runtime itself ran) leave stale entries: a new block drops those it overlaps.
  void add(const HeapBlock& block, uint64_t usable_size) {
    InternalLock lock(mu_);
    auto it = blocks_.lower_bound(block.addr);
    if (it != blocks_.begin()) {
      auto before = std::prev(it);
      if (before->first + before->second.size > block.addr) blocks_.erase(before);
    }
    while (it != blocks_.end() && it->first < block.addr + usable_size) it = blocks_.erase(it);
    blocks_[block.addr] = block;
    version_.fetch_add(1, std::memory_order_relaxed);
  }
  // The requested size of the block at addr, if known; forgets it.
  std::optional<uint64_t> remove(uint64_t addr) {
    InternalLock lock(mu_);
    auto it = blocks_.find(addr);
    if (it == blocks_.end()) return std::nullopt;
    const uint64_t size = it->second.size;
    blocks_.erase(it);
    version_.fetch_add(1, std::memory_order_relaxed);
    return size;
  }
  std::optional<HeapBlock> containing(uint64_t addr) {
    InternalLock lock(mu_);
    auto it = blocks_.upper_bound(addr);
    if (it == blocks_.begin()) return std::nullopt;
    --it;
    const HeapBlock& b = it->second;
    if (addr - b.addr < (b.size == 0 ? 1 : b.size)) return b;
    return std::nullopt;
  }
  // What holds addr, for the sampler (sampling.hpp): the block, or else the
  // gap [lo, hi) between the blocks around it.
  struct Span {
    std::optional<HeapBlock> block;
    uint64_t lo = 0, hi = ~uint64_t{0};
  };
  Span span_at(uint64_t addr) {
    InternalLock lock(mu_);
    Span span;
    auto it = blocks_.upper_bound(addr);
    if (it != blocks_.end()) span.hi = it->first;
    if (it == blocks_.begin()) return span;
    --it;
    const HeapBlock& b = it->second;
    const uint64_t end = b.addr + (b.size == 0 ? 1 : b.size);
    if (addr < end) {
      span.block = b;
      span.lo = b.addr;
      span.hi = end;
    } else {
      span.lo = end;
    }
    return span;
  }
  // Changes whenever a block is added or removed: what span_at() said may
  // be stale after that.
  uint64_t version() const { return version_.load(std::memory_order_relaxed); }

  void lock_for_fork() { mu_.lock(); }
  void unlock_after_fork() { mu_.unlock(); }

 private:
  InternalMutex mu_;
  std::map<uint64_t, HeapBlock> blocks_;
  std::atomic<uint64_t> version_{0};
};

}  // namespace raceaccel::rt
