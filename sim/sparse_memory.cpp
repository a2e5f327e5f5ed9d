#include "sparse_memory.hpp"

#include <algorithm>

namespace raceaccel::sim {

SparseMemory::Page& SparseMemory::page(uint64_t number) {
  auto& slot = pages_[number];
  if (!slot) {
    slot = std::make_unique<Page>();
    slot->fill(std::byte{0});
  }
  return *slot;
}

void SparseMemory::read(uint64_t addr, std::span<std::byte> out) const {
  size_t done = 0;
  while (done < out.size()) {
    const uint64_t at = addr + done;
    const uint64_t offset = at % kPageBytes;
    const size_t n = std::min<size_t>(out.size() - done, kPageBytes - offset);
    auto it = pages_.find(at / kPageBytes);
    if (it == pages_.end()) {
      std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(done), n, std::byte{0});
    } else {
      std::copy_n(it->second->begin() + static_cast<std::ptrdiff_t>(offset), n,
                  out.begin() + static_cast<std::ptrdiff_t>(done));
    }
    done += n;
  }
}

void SparseMemory::write(uint64_t addr, std::span<const std::byte> data) {
  size_t done = 0;
  while (done < data.size()) {
    const uint64_t at = addr + done;
    const uint64_t offset = at % kPageBytes;
    const size_t n = std::min<size_t>(data.size() - done, kPageBytes - offset);
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(done), n,
                page(at / kPageBytes).begin() + static_cast<std::ptrdiff_t>(offset));
    done += n;
  }
}

void SparseMemory::write_strobed(uint64_t addr, std::span<const std::byte, 64> data, uint64_t strobe) {
  for (unsigned i = 0; i < 64; ++i) {
    if ((strobe >> i) & 1u) {
      const uint64_t at = addr + i;
      page(at / kPageBytes)[at % kPageBytes] = data[i];
    }
  }
}

}  // namespace raceaccel::sim
