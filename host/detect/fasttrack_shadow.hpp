// FastTrack shadow memory: byte-precise, compact for aligned accesses.
//
// The address space is divided into 8-byte granules. A granule is described
// by one ShadowCell while its 8 bytes have identical history ("whole"); an
// access that covers only part of it splits it into 8 per-byte cells. A full
// 8-byte write over a split granule merges it back when the bytes agree.
// Cells live in 4 KiB-of-address pages (512 cells) allocated on first touch.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "detect/epoch_bits.hpp"

namespace raceaccel {

struct ShadowCell {
  // Packed last-write epoch W_x plus flags (bits 62, 63).
  uint64_t w = 0;
  // Packed last-read epoch R_x, or kReadShared | index of a read vector clock.
  // For a split granule: the index of its 8 byte cells.
  uint64_t r = 0;
  uint64_t write_site = 0;
  uint64_t read_site = 0;

  static constexpr uint64_t kRaced = uint64_t{1} << 62;  // first race reported; stop checking
  static constexpr uint64_t kSplit = uint64_t{1} << 63;  // r indexes 8 byte cells
  static constexpr uint64_t kReadShared = uint64_t{1} << 63;

  bool split() const { return (w & kSplit) != 0; }
  bool raced() const { return (w & kRaced) != 0; }
  bool read_shared() const { return (r & kReadShared) != 0; }
  bool operator==(const ShadowCell&) const = default;
};
static_assert(sizeof(ShadowCell) == 32);

// A read vector clock with the site of each thread's last read.
struct ReadClock {
  std::vector<uint64_t> clocks;  // by slot
  std::vector<uint64_t> sites;
  void set(uint32_t slot, uint64_t clock, uint64_t site) {
    if (slot >= clocks.size()) {
      clocks.resize(slot + 1, 0);
      sites.resize(slot + 1, 0);
    }
    clocks[slot] = clock;
    sites[slot] = site;
  }
};

class Shadow {
 public:
  static constexpr unsigned kGranuleShift = 3;
  static constexpr unsigned kPageShift = 9;  // granules per page = 512
  using ByteCells = std::array<ShadowCell, 8>;

  // The cell of granule g (address >> 3), created zero (⊥) on first touch.
  ShadowCell& granule(uint64_t g) {
    const uint64_t page = g >> kPageShift;
    if (page != cached_page_) {
      auto& slot = pages_[page];
      if (!slot) slot = std::make_unique<Page>();
      cached_page_ = page;
      cached_ = slot.get();
    }
    return cached_->cells[g & ((1u << kPageShift) - 1)];
  }
  const ShadowCell* find_granule(uint64_t g) const;

  // Splits a whole cell into 8 byte cells (each a copy, read clocks duplicated).
  ByteCells& split(ShadowCell& cell);
  ByteCells& bytes(const ShadowCell& cell) { return splits_[cell.r]; }
  const ByteCells& bytes(const ShadowCell& cell) const { return splits_[cell.r]; }
  // Merges a split cell back when all 8 byte cells are equal and own no read clock.
  void try_merge(ShadowCell& cell);

  uint32_t alloc_read_clock();
  void free_read_clock(uint32_t index);
  ReadClock& read_clock(uint64_t r) { return read_clocks_[static_cast<uint32_t>(r)]; }
  const ReadClock& read_clock(uint64_t r) const { return read_clocks_[static_cast<uint32_t>(r)]; }
  size_t read_clocks_in_use() const { return read_clocks_.size() - free_read_clocks_.size(); }

  // Resets [addr, addr+size) to ⊥, releasing read clocks and byte cells.
  void clear(uint64_t addr, uint64_t size);

 private:
  struct Page {
    std::array<ShadowCell, 1u << kPageShift> cells{};
  };
  void reset(ShadowCell& cell);                      // releases what the cell owns, then ⊥
  void clear_touched(uint64_t addr, uint64_t size);  // clear() by walking the range

  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  uint64_t cached_page_ = ~uint64_t{0};  // no page: real page numbers are below 2^52
  Page* cached_ = nullptr;
  std::vector<ByteCells> splits_;
  std::vector<uint32_t> free_splits_;
  std::vector<ReadClock> read_clocks_;
  std::vector<uint32_t> free_read_clocks_;
};

}  // namespace raceaccel
