#include "offload/touched_pages.hpp"

#include <algorithm>

namespace raceaccel::offload {

void TouchedPages::touch(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  const uint64_t last = (addr + (size - 1)) >> kPageBits;
  for (uint64_t page = addr >> kPageBits;; ++page) {
    if (page != last_page_) {
      pages_.insert(page);
      last_page_ = page;
    }
    if (page == last) break;
  }
}

std::vector<PageSpan> TouchedPages::spans_in(uint64_t addr, uint64_t size) const {
  std::vector<PageSpan> spans;
  if (size == 0) return spans;
  const uint64_t end = addr + (size - 1);  // inclusive: the range may end at 2^64 - 1
  const uint64_t first = addr >> kPageBits;
  const uint64_t last = end >> kPageBits;
  std::vector<uint64_t> pages;
  // Walk whichever is shorter: the range's pages or the touched ones.
  if (last - first < pages_.size()) {
    for (uint64_t p = first;; ++p) {
      if (pages_.count(p) != 0) pages.push_back(p);
      if (p == last) break;
    }
  } else {
    for (uint64_t p : pages_) {
      if (p >= first && p <= last) pages.push_back(p);
    }
    std::sort(pages.begin(), pages.end());
  }
  spans.reserve(pages.size());
  for (uint64_t p : pages) {
    const uint64_t lo = std::max(addr, p << kPageBits);
    const uint64_t hi = std::min(end, (p << kPageBits) + ((uint64_t{1} << kPageBits) - 1));
    spans.push_back({lo, hi - lo + 1});
  }
  return spans;
}

}  // namespace raceaccel::offload
