#include "detect/fasttrack_atomics.hpp"

#include <algorithm>

namespace raceaccel {

AtomicHistory& AtomicShadow::at(uint64_t addr) {
  const uint64_t key = addr + 1;
  size_t i = home(key);
  for (; slots_[i].key != 0; i = next(i)) {
    if (slots_[i].key == key) return histories_[slots_[i].index];
  }
  if (2 * (used_ + 1) > slots_.size()) {  // at most half full: probe runs stay short
    rehash(2 * slots_.size());
    for (i = home(key); slots_[i].key != 0; i = next(i)) {
    }
  }
  uint32_t index = 0;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<uint32_t>(histories_.size());
    histories_.emplace_back();
  }
  slots_[i] = {key, index};
  ++used_;
  ++page_bytes_[page_of(addr)];
  return histories_[index];
}

// Linear probing's deletion without tombstones: the entries after the hole
// in its probe run move back into it when their home allows it (their home
// is not cyclically inside (hole, their slot]), so every key stays
// reachable from its home without passing an empty slot.
void AtomicShadow::erase_byte(uint64_t addr) {
  const Slot* found = slot_of(addr);
  if (found == nullptr) return;
  size_t hole = static_cast<size_t>(found - slots_.data());
  AtomicHistory& h = histories_[slots_[hole].index];
  h.reads.clear();
  h.writes.clear();
  free_.push_back(slots_[hole].index);
  --used_;
  if (const auto page = page_bytes_.find(page_of(addr)); --page->second == 0) page_bytes_.erase(page);
  const size_t mask = slots_.size() - 1;
  for (size_t j = next(hole); slots_[j].key != 0; j = next(j)) {
    const size_t j_home = home(slots_[j].key);
    // Stays when its home lies in (hole, j] (cyclically): it would not be
    // found from there past the hole.
    const bool stays = ((j - j_home) & mask) < ((j - hole) & mask);
    if (!stays) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = {};
}

void AtomicShadow::erase(uint64_t addr, uint64_t size) {
  if (used_ == 0 || size == 0) return;
  if (size > used_) {  // a large range (a free): visit the known bytes instead
    std::vector<uint64_t> doomed;
    for (const Slot& s : slots_) {
      if (s.key != 0 && s.key - 1 - addr < size) doomed.push_back(s.key - 1);
    }
    for (const uint64_t a : doomed) erase_byte(a);
    return;
  }
  // Page by page, skipping pages without a history (most frees).
  const uint64_t end = addr + size;
  for (uint64_t at = addr; at < end;) {
    const uint64_t page_end = std::min(end, (page_of(at) + 1) << 12);
    if (page_bytes_.contains(page_of(at))) {
      for (uint64_t b = at; b < page_end; ++b) erase_byte(b);
    }
    at = page_end;
  }
}

void AtomicShadow::rehash(size_t n) {
  std::vector<Slot> old(n);
  old.swap(slots_);
  shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    size_t i = home(s.key);
    while (slots_[i].key != 0) i = next(i);
    slots_[i] = s;
  }
}

}  // namespace raceaccel
