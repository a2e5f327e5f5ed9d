// Which pages any access was sent for, so that an Alloc or Free of a range
// sends free commands only where history can be.
//
// Alloc and free ranges can be huge (a thread's 8 MiB stack, a gigabyte
// mapping) while the accesses inside them are few: freeing every granule
// would be a million commands for one stack. A granule no access ever
// touched holds no history, on the device or on the host, so freeing only
// the granules of touched pages gives the same state. Pages are never
// forgotten (a page freed once may be used again); a free of a range
// covering no touched page costs nothing.
//
// Used by both hosts of the check engine: the offload engine
// (OffloadChecker::free_touched) and the Verilator harness (sim/engine_checker).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace raceaccel::offload {

// A byte range [addr, addr + size), size >= 1, inside one page.
struct PageSpan {
  uint64_t addr = 0;
  uint64_t size = 0;
  bool operator==(const PageSpan&) const = default;
};

class TouchedPages {
 public:
  static constexpr unsigned kPageBits = 12;

  // An access to [addr, addr + size) was sent (size 0: nothing).
  void touch(uint64_t addr, uint64_t size);
  // The parts of [addr, addr + size) that lie in touched pages, ascending.
  // The range may end at 2^64 - 1; size 0 is an empty range.
  std::vector<PageSpan> spans_in(uint64_t addr, uint64_t size) const;
  // Pages touched so far.
  std::size_t size() const { return pages_.size(); }

 private:
  std::unordered_set<uint64_t> pages_;
  // Consecutive accesses mostly stay on one page: that case skips the set.
  uint64_t last_page_ = UINT64_MAX;  // no page number reaches it (pages are addr >> 12)
};

}  // namespace raceaccel::offload
