#include "detect/fasttrack_shadow.hpp"

#include <algorithm>

namespace raceaccel {

const ShadowCell* Shadow::find_granule(uint64_t g) const {
  const Page* p = table_.find(g >> kPageShift);
  if (p == nullptr) return nullptr;
  return &p->cells[g & ((1u << kPageShift) - 1)];
}

Shadow::Page* Shadow::add_page(uint64_t page) {
  Page* p = pages_.emplace_back(std::make_unique<Page>()).get();
  page_numbers_.push_back(page);
  table_.insert(page, p);
  return p;
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
  read_clocks_[index].clear();
  free_read_clocks_.push_back(index);
}

uint32_t Shadow::alloc_parts(unsigned parts) {
  switch (parts) {
    case 2: return halves_.alloc();
    case 4: return quarters_.alloc();
    default: return bytes_.alloc();
  }
}

void Shadow::release_parts(unsigned parts, uint32_t index) {
  switch (parts) {
    case 2: halves_.release(index); break;
    case 4: quarters_.release(index); break;
    default: bytes_.release(index); break;
  }
}

ShadowCell Shadow::copy_of(const ShadowCell& cell) {
  ShadowCell copy = cell;
  if (cell.read_shared()) {
    const uint32_t rc = alloc_read_clock();  // may move read_clocks_: index, don't hold references
    read_clocks_[rc] = read_clocks_[static_cast<uint32_t>(cell.r)];
    copy.r = (cell.r & ShadowCell::kAtomic) | ShadowCell::kReadShared | rc;
  }
  return copy;
}

void Shadow::spread(const ShadowCell& from, ShadowCell* to, unsigned n) {
  to[0] = from;  // takes over from's read clock, if it has one
  for (unsigned i = 1; i < n; ++i) to[i] = copy_of(from);
}

ShadowCell* Shadow::split_finer(ShadowCell& cell, unsigned parts) {
  const unsigned old_parts = cell.split() ? cell.parts() : 1;
  const uint32_t index = alloc_parts(parts);
  ShadowCell* fresh = parts_of(ShadowCell{ShadowCell::kSplit | parts, index, 0, 0});
  // Part i of the new split lies inside part i / ratio of the old one (the
  // whole cell when it was not split).
  const unsigned ratio = parts / old_parts;
  if (old_parts == 1) {
    spread(cell, fresh, ratio);
  } else {
    // The pools differ in size, so `old` stays valid while `fresh` is filled.
    ShadowCell* old = parts_of(cell);
    for (unsigned i = 0; i < old_parts; ++i) spread(old[i], fresh + i * ratio, ratio);
    release_parts(old_parts, static_cast<uint32_t>(cell.r));
  }
  cell = ShadowCell{};
  cell.w = ShadowCell::kSplit | parts;
  cell.r = index;
  return fresh;
}

void Shadow::try_merge(ShadowCell& cell) {
  const unsigned parts = cell.parts();
  const ShadowCell* p = parts_of(cell);
  // Equal cells own no read clock (each read clock has one owner), but say so anyway.
  if (p[0].read_shared()) return;
  for (unsigned i = 1; i < parts; ++i) {
    if (!(p[i] == p[0])) return;
  }
  const uint32_t index = static_cast<uint32_t>(cell.r);
  cell = p[0];
  release_parts(parts, index);
}

void Shadow::reset(ShadowCell& cell) {
  if (cell.split()) {
    ShadowCell* p = parts_of(cell);
    for (unsigned i = 0; i < cell.parts(); ++i) reset(p[i]);
    release_parts(cell.parts(), static_cast<uint32_t>(cell.r));
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
  if (last_page - first_page >= page_numbers_.size()) {
    std::vector<uint64_t> touched;
    for (uint64_t page : page_numbers_) {
      if (page >= first_page && page <= last_page) touched.push_back(page);
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
    if (table_.find(g >> kPageShift) == nullptr) {
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
      ShadowCell* p = refine(cell, parts_needed(offset, static_cast<unsigned>(n)));
      const unsigned shift = part_shift(cell);
      for (unsigned i = offset >> shift; i < (offset + n) >> shift; ++i) reset(p[i]);
      try_merge(cell);
    }
    addr += n;
    remaining -= n;
  }
}

}  // namespace raceaccel
