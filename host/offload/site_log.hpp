// Sites of earlier accesses. The device keeps epochs (slot, clock), not
// program sites, so a race record names its earlier access by epoch; the
// host recovers the site from this log. The golden detector names the access
// that set the epoch: the first access of that thread in that epoch to that
// byte since the byte's history was last reset (a free or an alloc); later
// accesses in the same epoch change nothing ([SAME EPOCH] rules).
//
// Per thread, entries are appended in event order and a thread's clock only
// grows, so an epoch is a contiguous run of that thread's entries: recording
// is an append, finding is a binary search for the run and a scan of it
// (only races look things up). Cost: one entry per access granule with a
// site (repeats at one site are folded), plus one per free/alloc event;
// traces without sites (site 0) log no accesses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace raceaccel::offload {

class SiteLog {
 public:
  void record(uint32_t slot, uint64_t clock, uint64_t granule, bool write, unsigned mask, uint64_t event,
              uint64_t site);
  // A free or alloc of [addr, addr + size) at `event` (events in increasing order).
  void record_reset(uint64_t event, uint64_t addr, uint64_t size);
  // The site of the access that set epoch (slot, clock) on byte `addr`, as
  // seen by the access at `event`; 0 if none was logged.
  uint64_t find(uint32_t slot, uint64_t clock, uint64_t addr, bool write, uint64_t event) const;
  std::size_t entries() const { return entries_; }

 private:
  struct Entry {
    uint64_t event, granule, site;
    uint8_t mask;
    bool write;
  };
  struct EpochStart {
    uint64_t clock;
    std::size_t first;  // index of its first entry
  };
  // Entries in fixed-size chunks: the log only grows (one entry per access
  // granule), and a vector would copy every entry again at each doubling.
  class Entries {
   public:
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Entry& operator[](std::size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
    const Entry& back() const { return (*this)[size_ - 1]; }
    void push_back(const Entry& e) {
      if (size_ % kChunk == 0) chunks_.push_back(std::make_unique_for_overwrite<Entry[]>(kChunk));
      chunks_.back()[size_ % kChunk] = e;
      ++size_;
    }

   private:
    static constexpr std::size_t kChunk = 4096;
    std::vector<std::unique_ptr<Entry[]>> chunks_;
    std::size_t size_ = 0;
  };
  struct Thread {
    Entries entries;
    std::vector<EpochStart> epochs;  // increasing clocks
  };
  struct Reset {
    uint64_t event, addr, size;
  };
  bool reset_between(uint64_t addr, uint64_t after, uint64_t before) const;

  std::vector<Thread> threads_;  // by dense slot
  std::vector<Reset> resets_;
  std::size_t entries_ = 0;
};

}  // namespace raceaccel::offload
