// Call stacks without unwinding: every thread keeps a shadow stack from the
// compiler's __tsan_func_entry/exit callbacks, as a path in one global trie
// of call sites. A stack is then one 32-bit node id; the frames are the node
// and its ancestors. Access sites (node, pc, size, kind) are interned in a
// depot whose ids go into Event::site, so a detector's report of the earlier
// access (Race::prev_site) carries that access's full stack, size and kind.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <vector>

#include "runtime/id_index.hpp"
#include "runtime/internal_mutex.hpp"

namespace raceaccel::rt {

// Node 0 is the root (no frame). Every other node is "called at pc from parent".
class StackTrie {
 public:
  static constexpr size_t kMaxNodes = size_t{1} << 20;
  StackTrie();
  uint32_t child(uint32_t parent, uint64_t pc);
  // Return addresses from node up to the root, innermost first.
  std::vector<uint64_t> frames(uint32_t node);
  void reset_after_fork() { mu_.reset_after_fork(); }
  InternalMutex& mutex() { return mu_; }
  size_t size() {
    InternalLock lock(mu_);
    return nodes_.size() - 1;  // the root is no call
  }

 private:
  struct Node {
    uint32_t parent;
    uint64_t pc;
  };
  static uint64_t hash(uint32_t parent, uint64_t pc) { return mix64(pc ^ (uint64_t{parent} * 0x9E3779B97F4A7C15ull)); }
  InternalMutex mu_;
  std::vector<Node> nodes_;
  IdIndex index_;  // (parent, pc) -> node
};

// How an access came about. FreeWrite (free) and AllocWrite (malloc: the
// block is written by its allocator) are checked as a Write; the kind only
// changes how reports describe them. Atomic marks the site of an atomic
// operation's event (never buffered: the detector checks the event itself).
enum class AccessKind : uint8_t { Read = 0, Write = 1, Alloc = 2, Atomic = 3, FreeWrite = 4, AllocWrite = 5 };
inline bool is_write(AccessKind k) {
  return k == AccessKind::Write || k == AccessKind::FreeWrite || k == AccessKind::AllocWrite;
}

// size_kind packs the access size (< 2^28) and its AccessKind in the top bits.
inline constexpr uint32_t kSizeBits = 28;
inline uint32_t pack_size_kind(uint32_t size, AccessKind k) { return size | (static_cast<uint32_t>(k) << kSizeBits); }
inline uint32_t unpack_size(uint32_t sk) { return sk & ((1u << kSizeBits) - 1); }
inline AccessKind unpack_kind(uint32_t sk) { return static_cast<AccessKind>(sk >> kSizeBits); }

struct Site {
  uint32_t node = 0;       // the caller chain
  uint32_t size_kind = 0;  // access size and kind
  uint64_t pc = 0;         // return address of the instrumentation callback (the access itself)
};

// A run of coalesced accesses made by several pcs in turn (an unrolled or
// vectorized loop; thread_state.hpp, RunPattern) is one site whose pc is
// kPatternPc | the index of its PcPattern: the access that covered byte X
// of the run was made at
//   pcs[((X - offset) / unit) % period],
// unit = the bytes each access added to the run (its size, or less when its
// first bytes were covered already: BufferedEvent::lead), offset = the
// run's start modulo unit. The pattern does not depend on the
// call stack, so a loop has one, however many stacks it runs under; reports
// turn such a site into the plain site of that access (SiteDepot::at_byte).
inline constexpr uint32_t kMaxRunPeriod = 8;
inline constexpr uint64_t kPatternPc = uint64_t{1} << 63;  // no program pc has bit 63 set
struct PcPattern {
  uint32_t unit = 0;
  uint32_t offset = 0;
  uint32_t period = 0;
  std::array<uint64_t, kMaxRunPeriod> pcs{};  // [period, kMaxRunPeriod): 0
  auto operator<=>(const PcPattern&) const = default;
};

// Not locked: used under the checker's report lock only. Interning runs on every
// drained access whose site misses the thread's site cache, which recursive
// code (every call path a new stack node) does all the time, so the index
// is open-addressed (linear probing, doubled at half load): one multiply and
// usually one probe, no allocation per site.
class SiteDepot {
 public:
  SiteDepot() : slots_(kInitialSlots) { sites_.push_back({}); }  // id 0: unknown
  uint64_t intern(const Site& s);
  // A pattern site (pc: kPatternPc | its pattern's index).
  uint64_t intern(uint32_t node, uint32_t size_kind, const PcPattern& pattern);
  // The plain site of the access under `site` that touched `byte`: site
  // itself, or for a pattern site, the site of its pc at that byte.
  uint64_t at_byte(uint64_t site, uint64_t byte);
  const Site& get(uint64_t id) const { return id < sites_.size() ? sites_[id] : sites_[0]; }
  size_t size() const { return sites_.size(); }

 private:
  static constexpr size_t kInitialSlots = 1024;
  size_t home(const Site& s) const {
    const uint64_t h =
        (s.pc * 0x9E3779B97F4A7C15ull) ^ (((uint64_t{s.node} << 32) | s.size_kind) * 0xC2B2AE3D27D4EB4Full);
    return static_cast<size_t>(h ^ (h >> 29)) & (slots_.size() - 1);
  }
  void place(const Site& s, uint32_t id);
  std::vector<Site> sites_;
  std::vector<uint32_t> slots_;  // site ids; 0: empty (4 bytes a slot: recursive code interns millions)
  // Patterns are few (one per unrolled loop and start offset): a tree will do.
  std::vector<PcPattern> patterns_;
  std::map<PcPattern, uint64_t> pattern_ids_;
};

}  // namespace raceaccel::rt
