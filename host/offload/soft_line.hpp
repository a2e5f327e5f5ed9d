// The host's share of the shadow state: granules the device handed over
// (read-share, forced, in-software, spill), checked here with FastTrack's
// rules on full-width clocks and dense thread slots, as in RADISH's software
// handler. A granule stays here until a full free reclaims it or the host
// sends it back with an import-line command (ProtocolCore's re-import).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/vector_clock.hpp"
#include "detect/race.hpp"
#include "driver/records.hpp"
#include "offload/atomic_history.hpp"

namespace raceaccel::offload {

struct SoftByte {
  bool raced = false;
  Epoch w, r;
  bool shared = false;  // r is superseded by rvc (concurrent reads)
  VectorClock rvc;
  // No atomic history: the host keeps it apart (AtomicHistory), since it
  // must outlive the line's stay with the host.
};

struct SoftLine {
  SoftByte bytes[8];
};

// One access as the host applies it.
struct SoftAccess {
  uint32_t slot = 0;  // dense thread slot
  bool write = false;
  unsigned mask = 0;
  const VectorClock* clock = nullptr;  // the thread's clock at the access
  // An atomic access (AtomicLoad reads, AtomicStore writes, AtomicRmw both);
  // `write` is then unused. It is checked against the plain history only.
  bool atomic_read = false, atomic_write = false;
  // A plain access: the bytes' first atomic access it is concurrent with,
  // found against the host's atomic history when it was sent (null: none).
  const AtomicConflicts* conflicts = nullptr;
  bool atomic() const { return atomic_read || atomic_write; }
};

class HostLines {
 public:
  // prev_atomic_site: the earlier access was atomic, with this site (the
  // host keeps atomic sites; plain ones come from the SiteLog).
  using RaceSink =
      std::function<void(unsigned byte, RaceKind kind, Epoch prev, std::optional<uint64_t> prev_atomic_site)>;

  bool owns(uint64_t granule) const { return lines_.count(granule) != 0; }
  // Takes the device's line unless the host already owns the granule (its
  // copy is then the authoritative one). Each shared byte b of the line
  // (read-VC pool) reads `read_clocks[b]` — the clock the record carried
  // for it, or the one the pool spilled earlier (LASTWRITE) — joined with
  // the byte's R, the latest read since the spill; R becomes ⊥. A shared
  // byte without a clock (a raced one) stays unshared. Returns the host's
  // line and whether it was imported now.
  using ByteClocks = std::array<const VectorClock*, 8>;
  std::pair<SoftLine*, bool> adopt(uint64_t granule, const driver::Line& line, const ByteClocks& read_clocks);
  void drop(uint64_t granule) { lines_.erase(granule); }
  const SoftLine* find(uint64_t granule) const {
    const auto it = lines_.find(granule);
    return it == lines_.end() ? nullptr : &it->second;
  }
  void free_bytes(uint64_t granule, unsigned mask);
  // FastTrack on the line, in DJIT+'s order of checks (docs/event-model.md):
  // a plain access against the last write, then its atomic conflicts, then
  // the reads; an atomic one against the plain history only. Reports first
  // races per byte through `sink`.
  static void check(SoftLine& line, const SoftAccess& access, const RaceSink& sink);
  size_t size() const { return lines_.size(); }

 private:
  std::unordered_map<uint64_t, SoftLine> lines_;
};

}  // namespace raceaccel::offload
