#include "runtime/thread_state_pool.hpp"

#include <sys/mman.h>

#include <cstring>

namespace raceaccel::rt {

ThreadStatePool::Block ThreadStatePool::take(size_t bytes) {
  {
    InternalLock lock(mu_);
    if (count_ > 0) return kept_[--count_];
  }
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return Block{memory == MAP_FAILED ? nullptr : memory, 1};
}

void ThreadStatePool::give(void* memory, size_t bytes, size_t zero_bytes, uint64_t last_generation) {
  std::memset(memory, 0, zero_bytes);  // the block is no one's until it is in kept_
  {
    InternalLock lock(mu_);
    if (count_ < kKept) {
      kept_[count_++] = Block{memory, last_generation + 1};
      return;
    }
  }
  munmap(memory, bytes);
}

}  // namespace raceaccel::rt
