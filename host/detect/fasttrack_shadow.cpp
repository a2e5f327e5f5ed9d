#include "detect/fasttrack_shadow.hpp"

#include <algorithm>

namespace raceaccel {

namespace {
constexpr size_t kMaxSpareCells = 16;  // released cell arrays kept for the next materialization
}

const ShadowCell* Shadow::find_granule(uint64_t g) const {
  const auto* slot = table_.find(g >> kPageShift);
  if (slot == nullptr) return nullptr;
  const Page* p = slot->page;
  const auto in_page = static_cast<uint32_t>(g & (kGranulesPerPage - 1));
  if (p->cells != nullptr) return &(*p->cells)[in_page];
  if (p->has_runs()) return &p->runs[run_holding(*p, in_page)].cell;
  return &p->uniform;
}

bool Shadow::page_is_uniform(uint64_t addr) const {
  const auto* slot = table_.find(addr >> kPageByteShift);
  return slot == nullptr || slot->page->is_uniform();
}

Shadow::Page* Shadow::add_page(uint64_t page) {
  Page* p = &pages_.emplace_back();
  p->number = page;
  table_.insert(page, p);
  return p;
}

void Shadow::set_cells(Page& p, std::unique_ptr<Cells> cells) {
  if (p.cells != nullptr) {
    --materialized_;
    if (spare_cells_.size() < kMaxSpareCells) spare_cells_.push_back(std::move(p.cells));
  }
  if (cells != nullptr) ++materialized_;
  p.cells = std::move(cells);
  ShadowCell* data = p.cells == nullptr ? nullptr : p.cells->data();
  table_.set_cells(p.number, data);
  if (&p == cached_) cached_cells_ = data;
}

void Shadow::materialize(Page& p) {
  std::unique_ptr<Cells> cells;
  if (spare_cells_.empty()) {
    cells = std::make_unique<Cells>();
  } else {
    cells = std::move(spare_cells_.back());
    spare_cells_.pop_back();
  }
  if (p.has_runs()) {
    // Each run's cell goes to its first granule (with what it owns: a read
    // clock, or the parts of a one-granule run), copies to the others.
    for (size_t i = 0; i < p.runs.size(); ++i) {
      const uint32_t begin = p.runs[i].begin;
      spread(p.runs[i].cell, cells->data() + begin, run_end(p, i) - begin);
    }
    std::vector<Run>().swap(p.runs);
    --run_pages_;
  } else {
    cells->fill(p.uniform);
  }
  set_cells(p, std::move(cells));
}

void Shadow::to_runs(Page& p) {
  p.run_accesses = 0;
  p.runs.reserve(4);
  p.runs.push_back({0, p.uniform});
  ++run_pages_;
}

size_t Shadow::run_holding(const Page& p, uint32_t g) {
  const auto after = std::upper_bound(p.runs.begin(), p.runs.end(), g,
                                      [](uint32_t granule, const Run& r) { return granule < r.begin; });
  return static_cast<size_t>(after - p.runs.begin()) - 1;
}

size_t Shadow::cut_runs(Page& p, uint32_t g) {
  if (g >= kGranulesPerPage) return p.runs.size();
  const size_t i = run_holding(p, g);
  if (p.runs[i].begin == g) return i;
  const Run second{g, copy_of(p.runs[i].cell)};  // copied before the insert moves the runs
  p.runs.insert(p.runs.begin() + static_cast<std::ptrdiff_t>(i) + 1, second);
  return i + 1;
}

void Shadow::settle_runs(Page& p, size_t first, size_t last, bool accessed) {
  std::vector<Run>& runs = p.runs;
  last = std::min(last, runs.size() - 1);
  // Equal runs own nothing: a read clock's or parts' index has one owner,
  // and runs never hold atomic history.
  for (size_t i = std::max<size_t>(first, 1); i <= last;) {
    if (runs[i].cell == runs[i - 1].cell) {
      runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(i));
      --last;
    } else {
      ++i;
    }
  }
  if (runs.size() == 1 && owns_nothing(runs[0].cell)) {
    p.uniform = runs[0].cell;
    std::vector<Run>().swap(runs);
    --run_pages_;
  } else if (runs.size() > max_runs_ || (accessed && ++p.run_accesses > kRunPageAccesses)) {
    materialize(p);
  }
}

void Shadow::try_make_uniform(Page& p) {
  if (p.cells == nullptr) return;
  const ShadowCell* c = p.cells->data();
  // Split cells and read clocks have one owner each, so equal cells own
  // neither; checking the first says so for all.
  // Cells with atomic history (kept per byte beside the cells) stay cells.
  if (c[0].split() || c[0].read_shared() || c[0].atomic()) return;
  constexpr unsigned kLast = kGranulesPerPage - 1;
  if (!(c[kLast] == c[0]) || !(c[kLast / 2] == c[0])) return;  // cheap probes first: most pages differ there
  for (unsigned i = 1; i < kGranulesPerPage; ++i) {
    if (!(c[i] == c[0])) return;
  }
  p.uniform = c[0];
  set_cells(p, nullptr);
}

void Shadow::release_cells(Page& p) {
  if (p.cells != nullptr) {
    for (ShadowCell& cell : *p.cells) reset(cell);
    set_cells(p, nullptr);
  }
  if (p.has_runs()) {
    for (Run& run : p.runs) reset(run.cell);
    std::vector<Run>().swap(p.runs);
    --run_pages_;
  }
  p.uniform = ShadowCell{};
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
    const uint32_t rc = alloc_read_clock();
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
  // Equal cells own no read clock (each read clock has one owner), but say so
  // anyway; cells with atomic history keep it per byte beside the cells.
  if (p[0].read_shared() || p[0].atomic()) return;
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
  const uint64_t last = addr + (size - 1);
  const uint64_t first_page = addr >> kPageByteShift;
  const uint64_t last_page = last >> kPageByteShift;
  auto clear_page = [&](uint64_t page) {
    const uint64_t lo = std::max(addr, page << kPageByteShift);
    const uint64_t hi = std::min(last, ((page + 1) << kPageByteShift) - 1);  // the top page wraps to ~0: last
    clear_in_page(page, lo, hi - lo + 1, size >= kPageBytes / 2);
  };
  // A range spanning more pages than were ever touched (a large free): visit
  // just the touched pages inside it. clear_in_page adds no pages.
  if (last_page - first_page >= pages_.size()) {
    for (const Page& p : pages_) {
      if (p.number >= first_page && p.number <= last_page) clear_page(p.number);
    }
    return;
  }
  for (uint64_t page = first_page;; ++page) {
    clear_page(page);
    if (page == last_page) break;
  }
}

void Shadow::clear_in_page(uint64_t page_number, uint64_t addr, uint64_t size, bool large) {
  const auto* slot = table_.find(page_number);
  if (slot == nullptr) return;  // never touched: already ⊥
  Page* p = slot->page;
  if (size == kPageBytes) {
    release_cells(*p);
    return;
  }
  if (p->is_uniform() && p->uniform == ShadowCell{}) return;
  if (p->cells == nullptr && runs_enabled()) {
    if (p->is_uniform()) to_runs(*p);
    return clear_runs(*p, addr, size);
  }
  ShadowCell* page_cells = cells(*p);
  uint64_t remaining = size;
  while (remaining > 0) {
    const uint64_t g = addr >> kGranuleShift;
    const unsigned offset = addr & 7;
    const uint64_t n = std::min<uint64_t>(8 - offset, remaining);
    clear_granule(page_cells[g & (kGranulesPerPage - 1)], offset, static_cast<unsigned>(n));
    addr += n;
    remaining -= n;
  }
  // A large free (half a page or more: a big block, a thread's stack) often
  // frees what was left of a page at its ends: then the page is uniform ⊥
  // again and its cells go. Small frees inside a page, frequent and rarely
  // its last live block, skip the scan.
  if (large) try_make_uniform(*p);
}

void Shadow::clear_granule(ShadowCell& cell, unsigned offset, unsigned n) {
  if (n == 8) {
    reset(cell);
  } else if (cell.split() || !(cell == ShadowCell{})) {
    ShadowCell* part = refine(cell, parts_needed(offset, n));
    const unsigned shift = part_shift(cell);
    for (unsigned i = offset >> shift; i < (offset + n) >> shift; ++i) reset(part[i]);
    try_merge(cell);
  }
}

// [addr, addr+size) lies inside run page p: its runs are cut at the range's
// ends (a granule it covers in part gets a run of its own), the runs inside
// are reset, then joined with their equal neighbours.
void Shadow::clear_runs(Page& p, uint64_t addr, uint64_t size) {
  const uint64_t base = p.number << kPageByteShift;
  const uint64_t end = addr + size;
  const auto g0 = static_cast<uint32_t>((addr - base) >> kGranuleShift);
  const auto g1 = static_cast<uint32_t>(((end - 1 - base) >> kGranuleShift) + 1);
  const size_t first = cut_runs(p, g0);
  if ((addr & 7) != 0) cut_runs(p, g0 + 1);
  if ((end & 7) != 0) cut_runs(p, g1 - 1);
  cut_runs(p, g1);
  size_t i = first;
  for (; i < p.runs.size() && p.runs[i].begin < g1; ++i) {
    Run& run = p.runs[i];
    const uint64_t run_addr = base + (uint64_t{run.begin} << kGranuleShift);
    if (run_end(p, i) - run.begin == 1) {
      const uint64_t lo = std::max(addr, run_addr);
      const uint64_t hi = std::min(end, run_addr + 8);
      clear_granule(run.cell, static_cast<unsigned>(lo & 7), static_cast<unsigned>(hi - lo));
    } else {
      reset(run.cell);
    }
  }
  settle_runs(p, first, i);
}

}  // namespace raceaccel
