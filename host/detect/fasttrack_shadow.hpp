// FastTrack shadow memory: byte-precise, compact for aligned accesses and
// for large ranges.
//
// The address space is divided into 8-byte granules. A granule is described
// by one ShadowCell while its 8 bytes have identical history ("whole"). An
// access that covers only part of it splits it, as coarsely as that access
// allows: an aligned 4-byte access into 2 halves, an aligned 2-byte access
// into 4 quarters, anything else into 8 bytes. Each part is a full cell for
// the bytes it covers, which all share one history, so the per-byte state is
// exactly the same as with 8 byte cells; the parts only spare the copies.
// A write of the whole granule, or a plain access that ends the granule,
// merges the parts back when they agree in every field and none owns a read
// clock or atomic history: the merged cell is then exactly each part.
//
// Granules are grouped in pages of 512 (4 KiB of address), found through an
// open-addressed page table (PageTable). A page is "uniform" while all its
// granules are equal, whole and own no read vector clock: one ShadowCell
// then stands for all 512 and no cell array exists. Large allocations,
// frees, memsets and copies (the runtime turns malloc/free of n bytes into a
// write of n bytes) keep pages uniform, so a 2 GiB block costs a few dozen
// bytes per page instead of 16 KiB. An access that would make the granules
// differ turns it into runs first; a write of the whole page that leaves the
// cells equal makes it uniform again.
//
// Between the two, a page is a list of runs (SlimState's ranges): granules
// [begin, next run's begin) all equal to the run's one cell. An array that
// threads touch in blocks (each thread its chunk, a loop over part of a
// page) keeps a run per block instead of 512 cells: the rule that one access
// applies to a run is the rule each of its granules would take, since they
// are equal (as for a uniform page). A run of two or more granules holds a
// whole cell without atomic history (it may own a read clock: each run owns
// its own, a run cut in two copies it); a run of one granule may be split
// into parts. A page with more runs than the detector's limit (hot pages,
// scattered small objects), or an atomic access, materializes the page: its
// 512 cells, reached by index.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "detect/epoch_bits.hpp"

namespace raceaccel {

struct ShadowCell {
  // Packed last-write epoch W_x plus flags (bits 62, 63). For a split
  // granule: kSplit | the number of parts (2, 4 or 8).
  uint64_t w = 0;
  // Packed last-read epoch R_x, or kReadShared | index of a read vector clock,
  // plus kAtomic. For a split granule: the index of its parts in the pool of
  // that size.
  uint64_t r = 0;
  uint64_t write_site = 0;
  // The site of the last read while R_x is an epoch. While R_x is a read
  // vector clock (whose entries carry their own sites) it is a hint instead:
  // 0, or the packed epoch (u, R_x(u)) of a reader u, kept true because R_x
  // changes only through the READ SHARE/SHARED rules, which set it. A read
  // whose E_t equals it is a same-epoch read, decided without loading R_x.
  uint64_t read_site = 0;

  static constexpr uint64_t kRaced = uint64_t{1} << 62;  // first race reported; stop checking
  static constexpr uint64_t kSplit = uint64_t{1} << 63;  // r indexes the parts
  static constexpr uint64_t kReadShared = uint64_t{1} << 63;
  // The bytes have atomic history in FastTrack's AtomicShadow
  // (fasttrack_atomics.hpp). Bit 62 of r is free: epochs use bits 0..61 and
  // read-clock indexes 32 bits.
  static constexpr uint64_t kAtomic = uint64_t{1} << 62;

  bool split() const { return (w & kSplit) != 0; }
  unsigned parts() const { return static_cast<unsigned>(w & 15); }  // when split()
  bool raced() const { return (w & kRaced) != 0; }
  bool read_shared() const { return (r & kReadShared) != 0; }
  bool atomic() const { return (r & kAtomic) != 0; }  // when !split()
  bool operator==(const ShadowCell&) const = default;
};
static_assert(sizeof(ShadowCell) == 32);

// A read vector clock with the site of each thread's last read, by slot. The
// first kInline slots are held inline (programs have few threads, and the
// main thread and the first workers take the low slots), so the common READ
// SHARED check touches one small object and no heap block.
class ReadClock {
 public:
  static constexpr uint32_t kInline = 4;
  uint32_t size() const { return size_; }
  uint64_t clock(uint32_t slot) const {
    if (slot < kInline) return slot < size_ ? inline_[slot].clock : 0;
    return slot < size_ ? more_[slot - kInline].clock : 0;
  }
  uint64_t site(uint32_t slot) const { return slot < kInline ? inline_[slot].site : more_[slot - kInline].site; }
  void set(uint32_t slot, uint64_t clock, uint64_t site) {
    if (slot >= size_) grow(slot + 1);
    Entry& e = slot < kInline ? inline_[slot] : more_[slot - kInline];
    e.clock = clock;
    e.site = site;
  }
  // Back to the empty clock, keeping the heap part's capacity for reuse.
  void clear() {
    inline_ = {};
    more_.clear();
    size_ = 0;
  }
  std::vector<uint64_t> clocks() const {
    std::vector<uint64_t> v(size_);
    for (uint32_t s = 0; s < size_; ++s) v[s] = clock(s);
    return v;
  }

 private:
  struct Entry {
    uint64_t clock = 0;
    uint64_t site = 0;
  };
  void grow(uint32_t size) {
    if (size > kInline) more_.resize(size - kInline);
    size_ = size;
  }
  uint32_t size_ = 0;
  std::array<Entry, kInline> inline_{};
  std::vector<Entry> more_;  // slots kInline and up
};

// Page number -> page, open addressing with linear probing. Pages are never
// removed (a cleared page is uniform ⊥), so there are no tombstones; the
// table doubles at half load. A lookup is a multiply, a shift and, almost
// always, one probe. The key is mixed before the multiply: the runtime's
// parallel checker gives each shard's detector the pages whose page number
// times the same golden-ratio constant has the same top bits
// (ShardedFastTrack::shard_of), and homes taken from those top bits put all
// of a shard's pages in 1/64 of its table: a 1 GiB block realloc'ed to
// 2 GiB took 16 s in probe chains, 0.3 s checked serially. Each slot also holds the page's cell array (null while
// the page is uniform), so reaching a cell costs the slot and the cell, as
// when pages were plain arrays; the owner keeps it current (set_cells).
template <typename Page>
class PageTable {
 public:
  struct Slot {
    uint64_t key = 0;
    Page* page = nullptr;
    ShadowCell* cells = nullptr;
  };
  PageTable() : slots_(kInitialSlots) {}
  const Slot* find(uint64_t page) const {
    const uint64_t key = page + 1;  // 0 marks an empty slot; page numbers are below 2^61
    for (size_t i = home(key);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s;
      if (s.key == 0) return nullptr;
    }
  }
  // Slots a lookup of `page` visits (tests: probe chains stay short).
  size_t probes(uint64_t page) const {
    const uint64_t key = page + 1;
    size_t n = 1;
    for (size_t i = home(key); slots_[i].key != key && slots_[i].key != 0; i = (i + 1) & (slots_.size() - 1)) ++n;
    return n;
  }
  void insert(uint64_t page, Page* p) {
    if (2 * (used_ + 1) > slots_.size()) rehash(2 * slots_.size());
    place({page + 1, p, nullptr});
    ++used_;
  }
  // Records the cell array of a page that is in the table.
  void set_cells(uint64_t page, ShadowCell* cells) { const_cast<Slot*>(find(page))->cells = cells; }

 private:
  static constexpr size_t kInitialSlots = 64;
  size_t home(uint64_t key) const {
    const uint64_t mixed = (key ^ (key >> 29)) * 0xBF58476D1CE4E5B9ull;  // not the shards' constant
    return static_cast<size_t>(mixed >> shift_) & (slots_.size() - 1);
  }
  void place(const Slot& slot) {
    size_t i = home(slot.key);
    while (slots_[i].key != 0) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = slot;
  }
  void rehash(size_t n) {
    std::vector<Slot> old(n);
    old.swap(slots_);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
    for (const Slot& s : old) {
      if (s.key != 0) place(s);
    }
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
  unsigned shift_ = 64 - 6;  // log2(kInitialSlots)
};

// Elements by index, in chunks of 2^kChunkShift (small: each of the
// runtime's 64 memory shards has its own pools) that never move: growing
// neither copies the elements nor holds two arrays at once, as a doubling
// std::vector does at each growth (which peak memory sees: with 200,000 split
// granules, the old and the new array of parts together). An element's
// address stays valid for the container's life.
template <typename T, unsigned kChunkShift = 6>
class ChunkedVector {
 public:
  size_t size() const { return size_; }
  T& operator[](size_t i) { return chunks_[i >> kChunkShift][i & kMask]; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkShift][i & kMask]; }
  T& emplace_back() {
    if ((size_ >> kChunkShift) == chunks_.size()) chunks_.push_back(std::make_unique<T[]>(size_t{1} << kChunkShift));
    return (*this)[size_++];
  }

 private:
  static constexpr size_t kMask = (size_t{1} << kChunkShift) - 1;
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

// A free-listed pool of fixed-size groups of cells (the parts of split granules).
template <unsigned N>
class PartPool {
 public:
  using Parts = std::array<ShadowCell, N>;
  uint32_t alloc() {
    if (!free_.empty()) {
      const uint32_t i = free_.back();
      free_.pop_back();
      return i;
    }
    parts_.emplace_back();
    return static_cast<uint32_t>(parts_.size() - 1);
  }
  void release(uint32_t i) { free_.push_back(i); }
  ShadowCell* at(uint32_t i) { return parts_[i].data(); }
  const ShadowCell* at(uint32_t i) const { return parts_[i].data(); }

 private:
  ChunkedVector<Parts> parts_;
  std::vector<uint32_t> free_;
};

class Shadow {
 public:
  static constexpr unsigned kGranuleShift = 3;
  static constexpr unsigned kPageShift = 9;  // granules per page = 512
  static constexpr unsigned kGranulesPerPage = 1u << kPageShift;
  static constexpr unsigned kPageByteShift = kPageShift + kGranuleShift;
  static constexpr uint64_t kPageBytes = uint64_t{1} << kPageByteShift;  // 4 KiB

  using Cells = std::array<ShadowCell, kGranulesPerPage>;
  // Granules [begin, the next run's begin or the page's end) of a run page.
  struct Run {
    uint32_t begin;  // granule index in the page
    ShadowCell cell;
  };
  struct Page {
    // While `cells` is null and `runs` empty the page is uniform: every
    // granule is `uniform`, which is whole (not split) and owns no read clock.
    ShadowCell uniform{};
    std::unique_ptr<Cells> cells;
    std::vector<Run> runs;      // a run page: sorted by begin, the first at 0
    uint32_t run_accesses = 0;  // accesses checked in the page's runs (kRunPageAccesses)
    uint64_t number = 0;        // address >> 12
    bool is_uniform() const { return cells == nullptr && runs.empty(); }
    bool has_runs() const { return !runs.empty(); }
  };
  // The most runs a page keeps before it is materialized (0: never runs;
  // every page that is not uniform holds its 512 cells). 128 runs take
  // 5 KiB against the cells' 16 KiB; a fully unrolled loop over a 256-byte
  // chunk per thread gives a page 64 runs (docs/performance.md, "Session 20").
  static constexpr uint32_t kDefaultMaxRuns = 128;
  // Accesses a page is checked in as runs before it is materialized: a
  // binary search and cuts cost more per access than the cells' index, so a
  // hot page (a ring's slots, a lock per node) goes to its cells, while a
  // page touched a few times per block of it keeps its runs.
  static constexpr uint32_t kRunPageAccesses = 256;
  void set_max_runs(uint32_t n) { max_runs_ = n; }
  bool runs_enabled() const { return max_runs_ != 0; }

  // The page with number `page` (address >> 12), created uniform ⊥ on first touch.
  Page& page(uint64_t page) {
    if (page != cached_page_) {
      const auto* slot = table_.find(page);
      if (slot == nullptr) {
        cached_ = add_page(page);
        cached_cells_ = nullptr;
      } else {
        cached_ = slot->page;
        cached_cells_ = slot->cells;
      }
      cached_page_ = page;
    }
    return *cached_;
  }
  // The page's 512 cells, materializing a uniform page (each cell a copy of
  // the uniform one, which owns nothing, so plain copies are exact) or a run
  // page (each granule a copy of its run's cell).
  ShadowCell* cells(Page& p) {
    if (p.cells == nullptr) materialize(p);
    return p.cells->data();
  }
  // The cells of page `page_number` when it is materialized, else null (a
  // uniform or run page), for the common case of small accesses: one
  // compare while they stay in one page, the table slot (not the Page) when
  // they move to another page.
  ShadowCell* materialized_cells(uint64_t page_number) {
    if (page_number != cached_page_) page(page_number);
    return cached_cells_;
  }
  // Makes a materialized page uniform again when its cells are all equal,
  // whole and own no read clock (after a write of the whole page).
  void try_make_uniform(Page& p);

  // Run pages. A uniform page becomes one run.
  void to_runs(Page& p);
  // Makes granule g (0 < g < 512) start a run, cutting the run that held it
  // (its copy gets a copy of any read clock); returns that run's index (the
  // number of runs for g == 512). The run cut spans two or more granules,
  // so its cell is whole.
  size_t cut_runs(Page& p, uint32_t g);
  // Index of the run holding granule g.
  static size_t run_holding(const Page& p, uint32_t g);
  static uint32_t run_end(const Page& p, size_t i) {
    return i + 1 < p.runs.size() ? p.runs[i + 1].begin : kGranulesPerPage;
  }
  // Joins neighbours among runs [first, last] (indexes) that are equal
  // (so own nothing), then makes the page uniform if one run that owns
  // nothing (whole, no read clock) is left, or materializes it if it has more
  // runs than the limit or was accessed kRunPageAccesses times as runs
  // (`accessed`: this call follows an access, not a clear).
  void settle_runs(Page& p, size_t first, size_t last, bool accessed = false);
  size_t run_pages() const { return run_pages_; }

  // The cell describing granule g (a uniform page's one cell), or null when
  // its page was never touched.
  const ShadowCell* find_granule(uint64_t g) const;
  // Whether the page holding addr is uniform (never touched counts as uniform ⊥).
  bool page_is_uniform(uint64_t addr) const;
  // Pages with a cell array (the others are uniform or runs).
  size_t materialized_pages() const { return materialized_; }

  // The number of parts (1, 2, 4 or 8) that bytes [offset, offset+n) of a
  // granule need: the coarsest split whose part boundaries include both ends.
  static unsigned parts_needed(unsigned offset, unsigned n) {
    const unsigned edges = offset | (offset + n);  // the part width must divide both
    if ((edges & 7) == 0) return 1;
    if ((edges & 3) == 0) return 2;
    if ((edges & 1) == 0) return 4;
    return 8;
  }
  // Makes `cell` (a granule's cell) split into at least `parts` parts (2, 4
  // or 8; each part holds the state of what it covers: the first part inside an
  // old one takes its read clock over, the others get copies)
  // and returns the first part; cell.parts() says how many there are.
  ShadowCell* refine(ShadowCell& cell, unsigned parts) {
    if (cell.split() && cell.parts() >= parts) return parts_of(cell);
    return split_finer(cell, parts);
  }
  // log2 of the width in bytes of each part of a split cell (2, 1 or 0).
  static unsigned part_shift(const ShadowCell& cell) { return 3 - static_cast<unsigned>(__builtin_ctz(cell.parts())); }
  ShadowCell* parts_of(const ShadowCell& cell) {
    const uint32_t index = static_cast<uint32_t>(cell.r);
    switch (cell.parts()) {
      case 2: return halves_.at(index);
      case 4: return quarters_.at(index);
      default: return bytes_.at(index);
    }
  }
  const ShadowCell* parts_of(const ShadowCell& cell) const { return const_cast<Shadow*>(this)->parts_of(cell); }
  // Merges a split cell back into one whole cell when all its parts are
  // equal and own no read clock.
  void try_merge(ShadowCell& cell);

  uint32_t alloc_read_clock();
  void free_read_clock(uint32_t index);
  ReadClock& read_clock(uint64_t r) { return read_clocks_[static_cast<uint32_t>(r)]; }
  const ReadClock& read_clock(uint64_t r) const { return read_clocks_[static_cast<uint32_t>(r)]; }
  size_t read_clocks_in_use() const { return read_clocks_.size() - free_read_clocks_.size(); }

  // Resets [addr, addr+size) to ⊥, releasing read clocks and parts. Whole
  // pages become uniform ⊥ in O(1) (O(512) if materialized).
  void clear(uint64_t addr, uint64_t size);
  // Resets the bytes [offset, offset+n) of the granule whose cell is `cell`.
  void clear_granule(ShadowCell& cell, unsigned offset, unsigned n);

 private:
  Page* add_page(uint64_t page);
  void materialize(Page& p);
  void set_cells(Page& p, std::unique_ptr<Cells> cells);  // keeps the table slot and the cache current
  void release_cells(Page& p);                            // back to uniform ⊥, releasing what the cells own
  // clear() of [addr, addr+size), which lies inside page `page`.
  // `large`: the whole range cleared is half a page or more.
  void clear_in_page(uint64_t page, uint64_t addr, uint64_t size, bool large);
  void clear_runs(Page& p, uint64_t addr, uint64_t size);
  // Whether a cell owns nothing another copy could not share: a page of one
  // run holding such a cell is uniform.
  static bool owns_nothing(const ShadowCell& c) { return !c.split() && !c.read_shared() && !c.atomic(); }
  ShadowCell* split_finer(ShadowCell& cell, unsigned parts);  // refine() when a new split is needed
  uint32_t alloc_parts(unsigned parts);
  void release_parts(unsigned parts, uint32_t index);
  ShadowCell copy_of(const ShadowCell& cell);  // duplicates an owned read clock
  // Fills to[0, n) with from's state: to[0] takes from's read clock over (from
  // is abandoned), the others get copies of it.
  void spread(const ShadowCell& from, ShadowCell* to, unsigned n);
  void reset(ShadowCell& cell);  // releases what the cell owns, then ⊥

  PageTable<Page> table_;
  std::deque<Page> pages_;                           // stable addresses; pages are never removed
  std::vector<std::unique_ptr<Cells>> spare_cells_;  // a few released arrays, for reuse
  size_t materialized_ = 0;
  size_t run_pages_ = 0;
  uint32_t max_runs_ = kDefaultMaxRuns;
  uint64_t cached_page_ = ~uint64_t{0};  // no page: real page numbers are below 2^52
  Page* cached_ = nullptr;
  ShadowCell* cached_cells_ = nullptr;  // cached_'s cells, null while it is uniform
  PartPool<2> halves_;
  PartPool<4> quarters_;
  PartPool<8> bytes_;
  ChunkedVector<ReadClock> read_clocks_;
  std::vector<uint32_t> free_read_clocks_;
};

}  // namespace raceaccel
