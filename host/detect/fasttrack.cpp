#include "detect/fasttrack.hpp"

#include <algorithm>

namespace raceaccel {
namespace eb = epoch_bits;

namespace {
inline uint64_t clock_at(const uint64_t* clock, size_t len, uint32_t slot) { return slot < len ? clock[slot] : 0; }
// e ≼ C_t
inline bool covered(uint64_t packed, const uint64_t* clock, size_t len) {
  return eb::clock(packed) <= clock_at(clock, len, eb::slot(packed));
}
// Whether a plain read of a whole (unsplit) cell by the thread whose epoch
// is `epoch` changes nothing: [READ SAME EPOCH], or its shared form, which
// the cell's hint answers without the read clock (R_x(t) = C_t(t) already,
// and W_x ≼ C_t held at that read and still holds: any write since would
// have freed the read clock or raced). Not with atomic history, whose
// checks come first.
inline bool read_is_noop(const ShadowCell& cell, uint64_t epoch) {
  return cell.r == epoch || ((cell.r & (ShadowCell::kReadShared | ShadowCell::kAtomic)) == ShadowCell::kReadShared &&
                             cell.read_site == epoch);
}
}  // namespace

FastTrackDetector::FastTrackDetector() = default;
FastTrackDetector::~FastTrackDetector() = default;

void FastTrackDetector::process(const Event& e, uint64_t index) {
  switch (e.op) {
    case Op::Read:
    case Op::Write: access(e, index); break;
    case Op::Alloc:
    case Op::Free:
      sync_.thread(e.tid);
      forget(e.addr, e.size);
      sync_.forget(e.addr, e.size);
      break;
    case Op::Destroy:
      sync_.thread(e.tid);
      sync_.forget_locks(e.addr, e.size);
      break;
    case Op::AtomicLoad:
    case Op::AtomicStore:
    case Op::AtomicRmw: {
      // The access sees the acquire part's clock and precedes the release
      // part's increment (docs/event-model.md, "Atomic accesses").
      const uint32_t t = sync_.thread(e.tid);
      sync_.atomic_acquire(e, t);
      access(e, index);
      sync_.atomic_release(e, t);
      break;
    }
    default: {
      const uint32_t t = sync_.thread(e.tid);
      sync_.apply(e, t);
      break;
    }
  }
}

// An access's parts are checked as accesses of their own: FastTrack's
// verdicts are per byte, so checking [a, b) and then [b, c) in one epoch
// gives each byte what checking [a, c) would (docs/detectors.md, "Sharded
// checking").
void FastTrackDetector::process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) {
  const auto check_parts = [&] {
    for (const ByteRange& p : parts) {
      Event piece = e;
      piece.addr = p.addr;
      piece.size = p.size;
      access(piece, index);
    }
  };
  if (is_access(e.op)) {
    if (parts.empty()) sync_.thread(e.tid);  // the thread's slot, in first-sight order
    check_parts();
  } else if (is_atomic(e.op)) {
    const uint32_t t = sync_.thread(e.tid);
    sync_.atomic_acquire(e, t);
    check_parts();
    sync_.atomic_release(e, t);
  } else {
    process(e, index);
  }
}

// Bytes [offset, offset+n) of the granule whose cell is `cell`, at addr.
[[gnu::always_inline]] inline void FastTrackDetector::access_granule(ShadowCell& cell, uint64_t addr, unsigned offset,
                                                                     unsigned n, const Event& e, uint64_t index,
                                                                     uint32_t t, const uint64_t* clock, size_t len,
                                                                     uint64_t epoch) {
  const bool is_read = e.op == Op::Read;
  const bool is_atomic_op = is_atomic(e.op);
  const uint64_t g = addr >> Shadow::kGranuleShift;
  // A plain access to part of a whole cell that its [SAME EPOCH] rule (or a
  // reported race) makes a no-op changes nothing: leave the cell whole
  // rather than split it and merge it back. (A cell with atomic history has
  // kAtomic in r, so r never equals an epoch.)
  if (!is_atomic_op && !cell.split() && (cell.raced() || (is_read ? read_is_noop(cell, epoch) : cell.w == epoch)))
    return;
  if (n == 8 && !cell.split()) {
    if (is_atomic_op) {
      check_atomic(cell, addr, 8, e, index, t, clock, len);
    } else if (is_read) {
      check_read(cell, addr, 8, e, index, t, clock, len, epoch);
    } else {
      check_write(cell, addr, 8, e, index, clock, len, epoch);
    }
  } else {
    // Only the parts covering [offset, offset+n) are checked; each part
    // stands for `width` bytes with one history (see fasttrack_shadow.hpp).
    const uint64_t base = g << Shadow::kGranuleShift;
    const unsigned needed = Shadow::parts_needed(offset, n);
    if (!(cell.split() && cell.parts() >= needed)) spread_atomic_history(cell, base);
    ShadowCell* parts = shadow_.refine(cell, needed);
    const unsigned shift = Shadow::part_shift(cell);  // part width = 1 << shift bytes
    const unsigned width = 1u << shift;
    for (unsigned i = offset >> shift; i < (offset + n) >> shift; ++i) {
      if (is_atomic_op) {
        check_atomic(parts[i], base + i * width, width, e, index, t, clock, len);
      } else if (is_read) {
        check_read(parts[i], base + i * width, width, e, index, t, clock, len, epoch);
      } else {
        check_write(parts[i], base + i * width, width, e, index, clock, len, epoch);
      }
    }
    // Merge attempts: after a write of the whole granule (it makes the
    // parts' write histories equal), and after a plain access that ends the
    // granule, which a byte- or word-wise scan makes in the same epoch and at
    // the same site as the granule's other bytes (its parts are then equal:
    // one cell instead of eight). Merging after other narrower accesses
    // thrashes between split and merged forms on mixed-size code. Not after
    // an atomic access: parts equal as cells may differ in atomic history.
    if (!is_atomic_op && offset + n == 8) shadow_.try_merge(cell);
  }
}

// [addr, addr+size) lies inside the page whose cells are page_cells: a
// partial granule at each end, whole granules between them.
[[gnu::always_inline]] inline void FastTrackDetector::access_cells(ShadowCell* page_cells, uint64_t addr, uint64_t size,
                                                                   const Event& e, uint64_t index, uint32_t t,
                                                                   const uint64_t* clock, size_t len, uint64_t epoch) {
  auto cell_of = [&](uint64_t a) -> ShadowCell& {
    return page_cells[(a >> Shadow::kGranuleShift) & (Shadow::kGranulesPerPage - 1)];
  };
  if (const unsigned offset = addr & 7; offset != 0) {
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(8 - offset, size));
    access_granule(cell_of(addr), addr, offset, n, e, index, t, clock, len, epoch);
    addr += n;
    size -= n;
  }
  if (const uint64_t whole = size >> Shadow::kGranuleShift; whole > 2) {
    access_whole_granules(&cell_of(addr), whole, addr, e, index, t, clock, len, epoch);
    addr += whole << Shadow::kGranuleShift;
    size &= 7;
  } else if (whole != 0) {  // a 16-byte access: too short for a run to pay for its memo
    access_granule(cell_of(addr), addr, 0, 8, e, index, t, clock, len, epoch);
    if (whole == 2) access_granule(cell_of(addr + 8), addr + 8, 0, 8, e, index, t, clock, len, epoch);
    addr += whole << Shadow::kGranuleShift;
    size &= 7;
  }
  if (size != 0) access_granule(cell_of(addr), addr, 0, static_cast<unsigned>(size), e, index, t, clock, len, epoch);
}

// `count` whole granules from addr (8-aligned), whose cells are cells[0,
// count): the body of a range or of a 16-byte access. Each granule takes
// exactly the rule access_granule would give it; what is saved is the
// per-byte bookkeeping, and, along a run of equal cells, the rule itself
// (SlimState's observation: an array's neighbouring elements mostly share
// their history, so a range over them meets one state again and again).
void FastTrackDetector::access_whole_granules(ShadowCell* cells, uint64_t count, uint64_t addr, const Event& e,
                                              uint64_t index, uint32_t t, const uint64_t* clock, size_t len,
                                              uint64_t epoch) {
  if (is_atomic(e.op)) {
    for (uint64_t i = 0; i < count; ++i, addr += 8)
      access_granule(cells[i], addr, 0, 8, e, index, t, clock, len, epoch);
    return;
  }
  const bool is_read = e.op == Op::Read;
  // The last cell checked here, before and after its rule, when that rule is
  // a pure function of the cell (and of this access and thread clock, the
  // same for every granule): the cell owned no read clock and had no atomic
  // history (whose checks look up the address), and the rule neither
  // reported a race nor made a read clock (each cell owns its own). A later
  // cell equal to `before` then ends equal to `after`, with no check.
  ShadowCell before, after;
  bool memo = false;
  for (uint64_t i = 0; i < count; ++i, addr += 8) {
    ShadowCell& cell = cells[i];
    if (cell.split()) [[unlikely]] {
      access_granule(cell, addr, 0, 8, e, index, t, clock, len, epoch);
      continue;
    }
    if (cell.raced() || (is_read ? read_is_noop(cell, epoch) : cell.w == epoch)) continue;  // or already raced
    if (memo && cell == before) {
      cell = after;
      continue;
    }
    const ShadowCell old = cell;
    if (is_read) {
      check_read(cell, addr, 8, e, index, t, clock, len, epoch);
    } else {
      check_write(cell, addr, 8, e, index, clock, len, epoch);
    }
    memo = !old.read_shared() && !old.atomic() && !cell.raced() && !cell.read_shared();
    before = old;
    after = cell;
  }
}

// The check of an access for both entry points, inlined into each: the
// serial detector's per-event path keeps no extra call.
[[gnu::always_inline]] inline void FastTrackDetector::access_body(const Event& e, uint64_t index,
                                                                  const ThreadView& view) {
  const uint32_t t = view.slot;
  const uint64_t* clock = view.clock;
  const size_t len = view.len;
  const uint64_t epoch = view.epoch;

  // The common case, an access inside one granule: straight to its cell.
  // (An empty access, which no reader produces, touches nothing.)
  // (A page that is not materialized goes to access_sparse.)
  const unsigned first_offset = e.addr & 7;
  if (first_offset + e.size <= 8 && e.size != 0) {
    const uint64_t page_number = e.addr >> Shadow::kPageByteShift;
    if (ShadowCell* cells = shadow_.materialized_cells(page_number); cells != nullptr) [[likely]] {
      access_granule(cells[(e.addr >> Shadow::kGranuleShift) & (Shadow::kGranulesPerPage - 1)], e.addr, first_offset,
                     static_cast<unsigned>(e.size), e, index, t, clock, len, epoch);
      return;
    }
    return access_sparse(page_number, e.addr, e.size, e, index, t, clock, len, epoch);
  }
  // Next, a short range inside one page (16-byte vector accesses, a
  // filter's coalesced range): straight to its cells.
  if (e.size < Shadow::kPageBytes && e.size != 0 && ((e.addr ^ (e.addr + e.size - 1)) >> Shadow::kPageByteShift) == 0) {
    const uint64_t page_number = e.addr >> Shadow::kPageByteShift;
    if (ShadowCell* cells = shadow_.materialized_cells(page_number); cells != nullptr) [[likely]] {
      access_cells(cells, e.addr, e.size, e, index, t, clock, len, epoch);
      return;
    }
    return access_sparse(page_number, e.addr, e.size, e, index, t, clock, len, epoch);
  }

  // Page by page.
  uint64_t addr = e.addr;
  uint64_t remaining = e.size;
  while (remaining > 0) {
    const uint64_t in_page = std::min(Shadow::kPageBytes - (addr & (Shadow::kPageBytes - 1)), remaining);
    const uint64_t page_number = addr >> Shadow::kPageByteShift;
    if (ShadowCell* cells = shadow_.materialized_cells(page_number); cells != nullptr) {
      access_cells(cells, addr, in_page, e, index, t, clock, len, epoch);
      // A write of the whole page may leave its granules equal again.
      if (in_page == Shadow::kPageBytes && e.op == Op::Write) shadow_.try_make_uniform(shadow_.page(page_number));
    } else {
      access_sparse(page_number, addr, in_page, e, index, t, clock, len, epoch);
    }
    addr += in_page;
    remaining -= in_page;
  }
}

// [addr, addr+size) lies inside page `page_number`, which is uniform or
// runs. A uniform page that the access covers whole is checked once for all
// its granules when that leaves them equal (access_uniform); otherwise the
// page becomes runs (or, for an atomic access or with runs off, its 512
// cells) and is checked there.
void FastTrackDetector::access_sparse(uint64_t page_number, uint64_t addr, uint64_t size, const Event& e,
                                      uint64_t index, uint32_t t, const uint64_t* clock, size_t len, uint64_t epoch) {
  Shadow::Page& page = shadow_.page(page_number);
  if (page.is_uniform() && size == Shadow::kPageBytes &&
      access_uniform(page.uniform, addr, e, index, t, clock, len, epoch))
    return;
  // Atomic histories are kept per byte beside materialized cells.
  if (is_atomic(e.op) || !shadow_.runs_enabled()) {
    access_cells(shadow_.cells(page), addr, size, e, index, t, clock, len, epoch);
    if (size == Shadow::kPageBytes && e.op == Op::Write) shadow_.try_make_uniform(page);
    return;
  }
  if (page.is_uniform()) shadow_.to_runs(page);
  access_runs(page, addr, size, e, index, t, clock, len, epoch);
}

// [addr, addr+size) lies inside run page `page`. Its runs are cut at the
// access's ends (a granule it covers in part gets a run of its own, which
// access_granule may split into parts); each run inside then takes the
// access's rule once: its granules are equal, so each would take that same
// rule and end equal (one read clock for the run under READ SHARE, as
// access_uniform's reasoning for a page); a race is reported for each of
// its bytes, in address order, as granule by granule. Then equal
// neighbours are joined again.
void FastTrackDetector::access_runs(Shadow::Page& page, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                                    uint32_t t, const uint64_t* clock, size_t len, uint64_t epoch) {
  const uint64_t base = page.number << Shadow::kPageByteShift;
  const uint64_t end = addr + size;
  const auto g0 = static_cast<uint32_t>((addr - base) >> Shadow::kGranuleShift);
  const auto g1 = static_cast<uint32_t>(((end - 1 - base) >> Shadow::kGranuleShift) + 1);
  const size_t first = shadow_.cut_runs(page, g0);
  if ((addr & 7) != 0) shadow_.cut_runs(page, g0 + 1);
  if ((end & 7) != 0) shadow_.cut_runs(page, g1 - 1);
  shadow_.cut_runs(page, g1);
  const bool is_read = e.op == Op::Read;
  size_t i = first;
  for (; i < page.runs.size() && page.runs[i].begin < g1; ++i) {
    ShadowCell& cell = page.runs[i].cell;
    const uint32_t granules = Shadow::run_end(page, i) - page.runs[i].begin;
    const uint64_t run_addr = base + (uint64_t{page.runs[i].begin} << Shadow::kGranuleShift);
    if (granules == 1) {
      const uint64_t lo = std::max(addr, run_addr);
      const uint64_t hi = std::min(end, run_addr + 8);
      access_granule(cell, lo, static_cast<unsigned>(lo & 7), static_cast<unsigned>(hi - lo), e, index, t, clock, len,
                     epoch);
    } else if (is_read) {
      if (!read_is_noop(cell, epoch))
        check_read(cell, run_addr, uint64_t{granules} << Shadow::kGranuleShift, e, index, t, clock, len, epoch);
    } else {
      check_write(cell, run_addr, uint64_t{granules} << Shadow::kGranuleShift, e, index, clock, len, epoch);
    }
  }
  shadow_.settle_runs(page, first, i, true);
}

// Every granule of the page is `cell` (whole, no read clock). Checking it
// once, for the page's 4096 bytes, is exactly checking each granule: they
// take the same rule, report the same earlier access (one race per byte, in
// address order, as granule by granule would) and end equal, unless a read
// would give each of them a read vector clock of its own (READ SHARE): then
// nothing is done and false returned, and the caller materializes the page.
bool FastTrackDetector::access_uniform(ShadowCell& cell, uint64_t addr, const Event& e, uint64_t index, uint32_t t,
                                       const uint64_t* clock, size_t len, uint64_t epoch) {
  if (is_atomic(e.op)) return false;  // atomic history lives per byte beside the cells
  if (e.op == Op::Write) {
    check_write(cell, addr, Shadow::kPageBytes, e, index, clock, len, epoch);
    return true;
  }
  const bool shares = !cell.raced() && cell.r != epoch && covered(cell.w, clock, len) && !covered(cell.r, clock, len);
  if (shares) return false;
  check_read(cell, addr, Shadow::kPageBytes, e, index, t, clock, len, epoch);
  return true;
}

void FastTrackDetector::check_read(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                                   uint32_t t, const uint64_t* clock, size_t len, uint64_t epoch) {
  if (cell.raced()) return;
  if (cell.r == epoch) return;  // [FT READ SAME EPOCH]
  if (cell.atomic()) [[unlikely]]
    return check_read_beside_atomics(cell, addr, size, e, index, t, clock, len, epoch);
  if (!covered(cell.w, clock, len)) {
    report(addr, size, e, index, RaceKind::WriteRead, cell.w, cell.write_site);
    cell.w |= ShadowCell::kRaced;
    return;
  }
  if (cell.read_shared()) {  // [FT READ SHARED]
    // A second read in the same epoch changes nothing (FT2's shared same-epoch
    // rule); keeping the first read's site matches what DJIT+ reports. The
    // cell's hint (ShadowCell::read_site) often answers without loading R_x.
    if (cell.read_site == epoch) return;
    ReadClock& rc = shadow_.read_clock(cell.r);
    if (rc.clock(t) != clock[t]) rc.set(t, clock[t], e.site);
    cell.read_site = epoch;  // R_x(t) = C_t(t) now
    return;
  }
  if (covered(cell.r, clock, len)) {  // [FT READ EXCLUSIVE]
    cell.r = epoch;
    cell.read_site = e.site;
    return;
  }
  // [FT READ SHARE]: two concurrent reads; inflate to a read vector clock.
  const uint32_t rc_index = shadow_.alloc_read_clock();
  ReadClock& rc = shadow_.read_clock(rc_index);
  rc.set(eb::slot(cell.r), eb::clock(cell.r), cell.read_site);
  rc.set(t, clock[t], e.site);
  cell.r = ShadowCell::kReadShared | rc_index;
  cell.read_site = epoch;  // the hint: R_x(t) = C_t(t)
}

void FastTrackDetector::check_write(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                                    const uint64_t* clock, size_t len, uint64_t epoch) {
  if (cell.raced()) return;
  if (cell.w == epoch) return;  // [FT WRITE SAME EPOCH]
  if (cell.atomic()) [[unlikely]]
    return check_write_beside_atomics(cell, addr, size, e, index, clock, len, epoch);
  if (!covered(cell.w, clock, len)) {
    report(addr, size, e, index, RaceKind::WriteWrite, cell.w, cell.write_site);
    cell.w |= ShadowCell::kRaced;
    return;
  }
  if (cell.read_shared()) {  // [FT WRITE SHARED]: R_x ⊑ C_t, O(n)
    const ReadClock& rc = shadow_.read_clock(cell.r);
    for (uint32_t u = 0; u < rc.size(); ++u) {
      if (rc.clock(u) > clock_at(clock, len, u)) {
        report(addr, size, e, index, RaceKind::ReadWrite, eb::pack(u, rc.clock(u)), rc.site(u));
        cell.w |= ShadowCell::kRaced;
        return;
      }
    }
    shadow_.free_read_clock(static_cast<uint32_t>(cell.r));
    cell.r = 0;  // R_x := ⊥e
    cell.read_site = 0;
  } else if (!covered(cell.r, clock, len)) {  // [FT WRITE EXCLUSIVE] read check
    report(addr, size, e, index, RaceKind::ReadWrite, cell.r, cell.read_site);
    cell.w |= ShadowCell::kRaced;
    return;
  }
  cell.w = epoch;
  cell.write_site = e.site;
}

// The checks run in the order docs/event-model.md gives: the last plain
// write, atomic writes, atomic reads, plain reads. A cell's bytes share one
// atomic history, so its first byte's stands for all of them.
void FastTrackDetector::check_read_beside_atomics(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e,
                                                  uint64_t index, uint32_t t, const uint64_t* clock, size_t len,
                                                  uint64_t epoch) {
  cell.r &= ~ShadowCell::kAtomic;  // the plain rules below see R_x alone
  if (cell.r != epoch) {           // [FT READ SAME EPOCH]
    const AtomicHistory* h = atomics_.find(addr);
    const int64_t u = covered(cell.w, clock, len) && h != nullptr ? first_concurrent(h->writes, clock, len) : -1;
    if (u >= 0) {
      const auto slot = static_cast<uint32_t>(u);
      report(addr, size, e, index, RaceKind::WriteRead, eb::pack(slot, h->writes.clock(slot)), h->writes.site(slot),
             true);
      cell.w |= ShadowCell::kRaced;
    } else {
      check_read(cell, addr, size, e, index, t, clock, len, epoch);
    }
  }
  cell.r |= ShadowCell::kAtomic;
}

void FastTrackDetector::check_write_beside_atomics(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e,
                                                   uint64_t index, const uint64_t* clock, size_t len, uint64_t epoch) {
  if (covered(cell.w, clock, len)) {
    if (const AtomicHistory* h = atomics_.find(addr); h != nullptr) {
      auto race = [&](RaceKind kind, const ReadClock& rc, int64_t u) {
        const auto slot = static_cast<uint32_t>(u);
        report(addr, size, e, index, kind, eb::pack(slot, rc.clock(slot)), rc.site(slot), true);
        cell.w |= ShadowCell::kRaced;
      };
      if (const int64_t u = first_concurrent(h->writes, clock, len); u >= 0)
        return race(RaceKind::WriteWrite, h->writes, u);
      if (const int64_t u = first_concurrent(h->reads, clock, len); u >= 0)
        return race(RaceKind::ReadWrite, h->reads, u);
    }
  }
  cell.r &= ~ShadowCell::kAtomic;
  check_write(cell, addr, size, e, index, clock, len, epoch);
  if (cell.raced()) {
    cell.r |= ShadowCell::kAtomic;
    return;
  }
  // Every atomic access to these bytes happens before this write, so any
  // later access concurrent with one of them is concurrent with this write,
  // which is checked first: their history can go.
  atomics_.erase(addr, size);
}

// An atomic access never races with an atomic one: an atomic read checks
// W_x, an atomic write (store or RMW) W_x and R_x.
void FastTrackDetector::check_atomic(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                                     uint32_t t, const uint64_t* clock, size_t len) {
  if (cell.raced()) return;
  const bool reads = e.op != Op::AtomicStore;
  const bool writes = e.op != Op::AtomicLoad;
  const uint64_t now = clock[t];
  // One look-up serves the test and the update below (a history never
  // moves, AtomicShadow: nothing between them erases).
  AtomicHistory* h = cell.atomic() ? atomics_.find(addr) : nullptr;
  if (h != nullptr && (!reads || h->reads.clock(t) == now) && (!writes || h->writes.clock(t) == now)) return;
  if (!covered(cell.w, clock, len)) {
    report(addr, size, e, index, writes ? RaceKind::WriteWrite : RaceKind::WriteRead, cell.w, cell.write_site);
    cell.w |= ShadowCell::kRaced;
    return;
  }
  if (writes) {
    if (cell.read_shared()) {
      const ReadClock& rc = shadow_.read_clock(cell.r);
      if (const int64_t u = first_concurrent(rc, clock, len); u >= 0) {
        const auto slot = static_cast<uint32_t>(u);
        report(addr, size, e, index, RaceKind::ReadWrite, eb::pack(slot, rc.clock(slot)), rc.site(slot));
        cell.w |= ShadowCell::kRaced;
        return;
      }
    } else if (!covered(cell.r, clock, len)) {
      report(addr, size, e, index, RaceKind::ReadWrite, cell.r & eb::kEpochMask, cell.read_site);
      cell.w |= ShadowCell::kRaced;
      return;
    }
  }
  if (h == nullptr) h = &atomics_.at(addr);  // the cell's: its bytes share one (spread_atomic_history)
  if (reads && h->reads.clock(t) != now) h->reads.set(t, now, e.site);
  if (writes && h->writes.clock(t) != now) h->writes.set(t, now, e.site);
  cell.r |= ShadowCell::kAtomic;
}

void FastTrackDetector::report(uint64_t addr, uint64_t size, const Event& e, uint64_t index, RaceKind kind,
                               uint64_t prev_epoch, uint64_t prev_site, bool prev_atomic) {
  // Memory-only (the runtime's shards): the slot and its clock, named by
  // the owner of the thread clocks (ShardedFastTrack::tids_of).
  const FastTrackSync::Occupant prev = memory_only_
                                           ? FastTrackSync::Occupant{eb::slot(prev_epoch), eb::clock(prev_epoch)}
                                           : sync_.occupant(eb::slot(prev_epoch), eb::clock(prev_epoch));
  const bool atomic = is_atomic(e.op);
  for (uint64_t i = 0; i < size; ++i) {
    races_.push_back({addr + i, index, kind, e.tid, e.site, prev.tid, prev.clock, prev_site, atomic, prev_atomic});
  }
}

// Atomic histories are kept at the first byte of each cell or part that has
// one (its bytes share it: an atomic access covers whole cells or parts,
// splitting the granule first). Before a granule is split finer (a narrower
// access, a free of part of it), each byte of a part gets the part's
// history, so that every new part finds its own at its first byte. An
// 8-byte atomic then costs one history, not eight.
void FastTrackDetector::spread_atomic_history(const ShadowCell& cell, uint64_t base) {
  const unsigned parts = cell.split() ? cell.parts() : 1;
  const unsigned width = 8 / parts;
  if (width == 1 || atomics_.bytes() == 0) return;
  const ShadowCell* part = cell.split() ? shadow_.parts_of(cell) : &cell;
  for (unsigned j = 0; j < parts; ++j) {
    if (!part[j].atomic()) continue;
    const AtomicHistory* h = atomics_.find(base + j * width);
    if (h == nullptr) continue;
    const AtomicHistory copy = *h;  // at() below creates the other bytes' histories
    for (unsigned k = 1; k < width; ++k) atomics_.at(base + j * width + k) = copy;
  }
}

void FastTrackDetector::forget(uint64_t addr, uint64_t size) {
  // A granule cleared in part is split (Shadow::clear): its parts that stay
  // need their histories at their first bytes.
  if (atomics_.bytes() != 0 && size != 0) {
    for (const uint64_t edge : {addr, addr + size}) {
      if ((edge & 7) == 0) continue;
      if (const ShadowCell* cell = shadow_.find_granule(edge >> Shadow::kGranuleShift); cell != nullptr)
        spread_atomic_history(*cell, edge & ~uint64_t{7});
    }
  }
  shadow_.clear(addr, size);
  atomics_.erase(addr, size);
}

void FastTrackDetector::take_races(std::vector<Race>& into) {
  into.insert(into.end(), races_.begin(), races_.end());
  races_.clear();
}

void FastTrackDetector::access(const Event& e, uint64_t index) {
  const uint32_t t = sync_.thread(e.tid);
  const auto [clock, len] = sync_.dense_view(t);
  access_body(e, index, {t, clock, len, sync_.packed_epoch(t)});
}

void FastTrackDetector::access_with(const Event& e, uint64_t index, const ThreadView& view) {
  access_body(e, index, view);
}

VectorClock FastTrackDetector::thread_clock(ThreadId tid) { return sync_.clock(sync_.thread(tid)); }

namespace {
const ShadowCell* byte_cell(const Shadow& shadow, uint64_t addr) {
  const ShadowCell* cell = shadow.find_granule(addr >> Shadow::kGranuleShift);
  if (cell == nullptr || !cell->split()) return cell;
  return &shadow.parts_of(*cell)[(addr & 7) >> Shadow::part_shift(*cell)];
}
}  // namespace

Epoch FastTrackDetector::write_epoch(uint64_t addr) const {
  const ShadowCell* cell = byte_cell(shadow_, addr);
  if (cell == nullptr) return {};
  return {eb::slot(cell->w), eb::clock(cell->w)};
}

unsigned FastTrackDetector::granule_parts(uint64_t addr) const {
  const ShadowCell* cell = shadow_.find_granule(addr >> Shadow::kGranuleShift);
  return cell != nullptr && cell->split() ? cell->parts() : 1;
}

FastTrackDetector::ReadState FastTrackDetector::read_state(uint64_t addr) const {
  ReadState state;
  const ShadowCell* cell = byte_cell(shadow_, addr);
  if (cell == nullptr) return state;
  if (cell->read_shared()) {
    state.shared = true;
    const ReadClock& rc = shadow_.read_clock(cell->r);
    const std::vector<uint64_t> clocks = rc.clocks();
    for (uint32_t s = 0; s < clocks.size(); ++s) state.clock.set(s, clocks[s]);
  } else {
    state.epoch = {eb::slot(cell->r), eb::clock(cell->r)};
  }
  return state;
}

}  // namespace raceaccel
