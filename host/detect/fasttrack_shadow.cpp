#include "detect/fasttrack_shadow.hpp"

#include <algorithm>

namespace raceaccel {

const ShadowCell* Shadow::find_granule(uint64_t g) const {
  auto it = pages_.find(g >> kPageShift);
  if (it == pages_.end()) return nullptr;
  return &it->second->cells[g & ((1u << kPageShift) - 1)];
}

uint32_t Shadow::alloc_read_clock() {
  if (!free_read_clocks_.empty()) {
    const uint32_t i = free_read_clocks_.back();
    free_read_clocks_.pop_back();
    return i;
  }
  read_clocks_.emplace_back();
  return static_cast<uint32_t>(read_clocks_.size() - 1);
}

void Shadow::free_read_clock(uint32_t index) {
  ReadClock& rc = read_clocks_[index];
  std::fill(rc.clocks.begin(), rc.clocks.end(), 0);  // keep capacity for reuse
  free_read_clocks_.push_back(index);
}

Shadow::ByteCells& Shadow::split(ShadowCell& cell) {
  uint32_t index;
  if (!free_splits_.empty()) {
    index = free_splits_.back();
    free_splits_.pop_back();
  } else {
    splits_.emplace_back();
    index = static_cast<uint32_t>(splits_.size() - 1);
  }
  ByteCells& bytes = splits_[index];  // no allocation of splits_ below this point
  for (ShadowCell& b : bytes) {
    b = cell;
    if (cell.read_shared()) {
      const uint32_t rc = alloc_read_clock();
      read_clocks_[rc] = read_clocks_[static_cast<uint32_t>(cell.r)];
      b.r = ShadowCell::kReadShared | rc;
    }
  }
  if (cell.read_shared()) free_read_clock(static_cast<uint32_t>(cell.r));
  cell = ShadowCell{};
  cell.w = ShadowCell::kSplit;
  cell.r = index;
  return bytes;
}

void Shadow::try_merge(ShadowCell& cell) {
  ByteCells& bytes = splits_[cell.r];
  const ShadowCell& first = bytes[0];
  if (first.read_shared()) return;
  for (size_t i = 1; i < bytes.size(); ++i) {
    if (!(bytes[i] == first)) return;
  }
  const uint32_t index = static_cast<uint32_t>(cell.r);
  cell = first;
  free_splits_.push_back(index);
}

void Shadow::reset(ShadowCell& cell) {
  if (cell.split()) {
    const uint32_t index = static_cast<uint32_t>(cell.r);
    for (ShadowCell& b : splits_[index]) reset(b);
    free_splits_.push_back(index);
  } else if (cell.read_shared()) {
    free_read_clock(static_cast<uint32_t>(cell.r));
  }
  cell = ShadowCell{};
}

void Shadow::clear(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  // A range spanning more pages than were ever touched (a large free): clear
  // just the touched pages inside it, in address order.
  const uint64_t last = addr + (size - 1);
  const uint64_t first_page = addr >> (kPageShift + kGranuleShift);
  const uint64_t last_page = last >> (kPageShift + kGranuleShift);
  if (last_page - first_page >= pages_.size()) {
    std::vector<uint64_t> touched;
    for (const auto& entry : pages_) {
      if (entry.first >= first_page && entry.first <= last_page) touched.push_back(entry.first);
    }
    std::sort(touched.begin(), touched.end());
    for (uint64_t page : touched) {
      const uint64_t lo = std::max(addr, page << (kPageShift + kGranuleShift));
      const uint64_t hi = std::min(last, ((page + 1) << (kPageShift + kGranuleShift)) - 1);
      clear_touched(lo, hi - lo + 1);
    }
    return;
  }
  clear_touched(addr, size);
}

void Shadow::clear_touched(uint64_t addr, uint64_t size) {
  uint64_t remaining = size;
  while (remaining > 0) {
    const uint64_t g = addr >> kGranuleShift;
    const unsigned offset = addr & 7;
    const uint64_t n = std::min<uint64_t>(8 - offset, remaining);
    // Untouched pages hold only ⊥ cells: skip the rest of such a page.
    if (pages_.find(g >> kPageShift) == pages_.end()) {
      const uint64_t page_end = ((g >> kPageShift) + 1) << (kPageShift + kGranuleShift);
      const uint64_t skip = page_end == 0 ? remaining : std::min(remaining, page_end - addr);
      addr += skip;
      remaining -= skip;
      continue;
    }
    ShadowCell& cell = granule(g);
    if (n == 8) {
      reset(cell);
    } else if (cell.split() || !(cell == ShadowCell{})) {
      ByteCells& b = cell.split() ? bytes(cell) : split(cell);
      for (unsigned i = offset; i < offset + n; ++i) reset(b[i]);
      try_merge(cell);
    }
    addr += n;
    remaining -= n;
  }
}

}  // namespace raceaccel
