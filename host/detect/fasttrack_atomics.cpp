#include "detect/fasttrack_atomics.hpp"

namespace raceaccel {

void AtomicShadow::erase(uint64_t addr, uint64_t size) {
  if (bytes_.empty() || size == 0) return;
  if (size > bytes_.size()) {  // a large range (a free): visit the known bytes instead
    std::erase_if(bytes_, [&](const auto& entry) { return entry.first - addr < size; });
    return;
  }
  for (uint64_t i = 0; i < size; ++i) bytes_.erase(addr + i);
}

}  // namespace raceaccel
