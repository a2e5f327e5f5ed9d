// FastTrack (Flanagan & Freund, PLDI'09 / CACM'10): epochs for the last
// write, an adaptive epoch-or-vector-clock for reads, every rule of Fig. 3
// (accesses) and Fig. 4 (synchronization), byte-precise.
//
// Shadow memory: one 32-byte cell per 8-byte granule while all 8 bytes have
// identical history (aligned 8-byte accesses, the common case); an access
// that covers only part of a granule splits it into 2, 4 or 8 parts, as
// coarsely as the access allows; one cell for a whole 4 KiB page while all
// its granules are equal (large allocations, frees and copies).
// See docs/detectors.md for the layout and the capacity limits.
#pragma once

#include <memory>

#include "core/vector_clock.hpp"
#include "detect/detector.hpp"
#include "detect/fasttrack_atomics.hpp"
#include "detect/fasttrack_shadow.hpp"
#include "detect/fasttrack_sync.hpp"

namespace raceaccel {

class FastTrackDetector final : public Detector {
 public:
  FastTrackDetector();
  ~FastTrackDetector() override;
  std::string_view name() const override { return "fasttrack"; }
  void process(const Event& event, uint64_t index) override;
  const std::vector<Race>& races() const override { return races_; }
  void forget_races() override { forget_race_list(races_); }
  bool shardable() const override { return true; }
  void process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) override;

  // The shadow half alone, for a checker that keeps the synchronization
  // state itself and splits memory among several detectors (the runtime's
  // parallel checker, docs/runtime.md "Parallel checking"): such a detector
  // only ever sees access_with() and forget(), and a race names the earlier
  // access's thread by its slot (prev_tid), which the caller translates.
  struct ThreadView {
    uint32_t slot;          // the thread's slot
    const uint64_t* clock;  // C_t by slot, zero from len on
    size_t len;
    uint64_t epoch;  // packed E_t
  };
  void set_memory_only() { memory_only_ = true; }
  // A Read, Write or atomic access (the atomic's synchronization is the caller's).
  void access_with(const Event& e, uint64_t index, const ThreadView& view);
  // Alloc/Free: the bytes' shadow and atomic history go back to ⊥.
  void forget(uint64_t addr, uint64_t size);
  // Moves the races found so far to the end of into.
  void take_races(std::vector<Race>& into);
  bool has_races() const { return !races_.empty(); }

  // Inspection for tests. Slots are threads in order of first appearance.
  struct ReadState {
    bool shared = false;  // R_x is a vector clock
    Epoch epoch;          // when !shared
    VectorClock clock;    // when shared
  };
  VectorClock thread_clock(ThreadId tid);
  Epoch write_epoch(uint64_t addr) const;
  ReadState read_state(uint64_t addr) const;
  size_t read_clocks_in_use() const { return shadow_.read_clocks_in_use(); }
  size_t thread_clock_bytes() const { return sync_.thread_clock_bytes(); }
  // On by default; off for ablation (RACEACCEL_OPTIONS=reuse_slots=0).
  void set_slot_reuse(bool on) { sync_.set_slot_reuse(on); }
  // Thread slots in use, and how many forks took a joined thread's slot.
  uint32_t thread_slots() const { return sync_.thread_slots(); }
  uint64_t slot_reuses() const { return sync_.slot_reuses(); }
  // How many cells describe the granule holding addr: 1 (whole or never
  // touched), 2 halves, 4 quarters or 8 bytes.
  unsigned granule_parts(uint64_t addr) const;
  // Atomic histories (AR_x, AW_x) kept beside the cells: one per cell or
  // part with atomic history, at its first byte, and one per byte of a
  // granule split since (spread_atomic_history).
  size_t atomic_bytes() const { return atomics_.bytes(); }
  // Whether the shadow page (4 KiB) holding addr is one uniform cell, and how
  // many pages hold all 512 cells (see fasttrack_shadow.hpp).
  bool page_is_uniform(uint64_t addr) const { return shadow_.page_is_uniform(addr); }
  size_t materialized_pages() const { return shadow_.materialized_pages(); }
  // Pages held as runs of equal granules, and the most runs a page keeps
  // before it is materialized (0: no run pages; RACEACCEL_OPTIONS shadow_runs).
  size_t run_pages() const { return shadow_.run_pages(); }
  void set_max_runs(uint32_t n) { shadow_.set_max_runs(n); }

 private:
  void access(const Event& e, uint64_t index);
  void access_body(const Event& e, uint64_t index, const ThreadView& view);
  void access_granule(ShadowCell& cell, uint64_t addr, unsigned offset, unsigned n, const Event& e, uint64_t index,
                      uint32_t t, const uint64_t* clock, size_t clock_len, uint64_t epoch);
  bool access_uniform(ShadowCell& cell, uint64_t addr, const Event& e, uint64_t index, uint32_t t,
                      const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void access_whole_granules(ShadowCell* cells, uint64_t count, uint64_t addr, const Event& e, uint64_t index,
                             uint32_t t, const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void access_sparse(uint64_t page_number, uint64_t addr, uint64_t size, const Event& e, uint64_t index, uint32_t t,
                     const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void access_runs(Shadow::Page& page, uint64_t addr, uint64_t size, const Event& e, uint64_t index, uint32_t t,
                   const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void access_cells(ShadowCell* page_cells, uint64_t addr, uint64_t size, const Event& e, uint64_t index, uint32_t t,
                    const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void check_read(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index, uint32_t t,
                  const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void check_write(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                   const uint64_t* clock, size_t clock_len, uint64_t epoch);
  // Plain accesses to a cell with atomic history (ShadowCell::kAtomic).
  void check_read_beside_atomics(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                                 uint32_t t, const uint64_t* clock, size_t clock_len, uint64_t epoch);
  void check_write_beside_atomics(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index,
                                  const uint64_t* clock, size_t clock_len, uint64_t epoch);
  // AtomicLoad, AtomicStore, AtomicRmw.
  void check_atomic(ShadowCell& cell, uint64_t addr, uint64_t size, const Event& e, uint64_t index, uint32_t t,
                    const uint64_t* clock, size_t clock_len);
  void spread_atomic_history(const ShadowCell& cell, uint64_t base);
  void report(uint64_t addr, uint64_t size, const Event& e, uint64_t index, RaceKind kind, uint64_t prev_epoch,
              uint64_t prev_site, bool prev_atomic = false);

  FastTrackSync sync_;
  Shadow shadow_;
  AtomicShadow atomics_;
  std::vector<Race> races_;
  bool memory_only_ = false;
};

}  // namespace raceaccel
