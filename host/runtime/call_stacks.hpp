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
#include <unordered_map>
#include <vector>

#include "runtime/id_index.hpp"
#include "runtime/internal_mutex.hpp"
#include "trace/program_info.hpp"

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
  // Every node (0: the root), for a recording's program info.
  std::vector<StackNode> nodes();
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

// AccessKind and the size_kind packing are trace/program_info.hpp's: a
// recording carries the code sites, and `raceaccel check` reads them.

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

// Site ids name a (call stack, instruction, access size and kind): 0 is
// "unknown", any other id is 1 + (node << kCodeBits | code), where node is
// the StackTrie node and code indexes the depot's table of *code sites*,
// the distinct (pc, size_kind) pairs (one per instruction and access size:
// a program has few). Only code sites are interned, so an access in a new
// call path (recursive code makes one at nearly every call) needs no new
// entry anywhere: its id is composed, and the thread's cache of code
// sites (Checker::site_of) nearly always knows the code. Interning every
// (node, pc, size_kind) instead cost mergesort 73,584 entries and the CPU to
// probe for them.
// Not locked: used under the checker's report lock only.
class SiteDepot {
 public:
  static constexpr unsigned kCodeBits = kSiteCodeBits;  // the recorded ids are these (program_info.hpp)
  static constexpr uint64_t kMaxCodes = kMaxSiteCodes;
  static_assert(StackTrie::kMaxNodes <= (uint64_t{1} << (63 - kCodeBits)));

  static uint64_t id_of(uint32_t node, uint32_t code) { return site_id(node, code); }
  // The code site of (pc, size_kind), or kMaxCodes when the table is full
  // (then its accesses' sites are unknown: id 0).
  uint32_t code_of(uint64_t pc, uint32_t size_kind);
  uint64_t intern(const Site& s) {
    const uint32_t code = code_of(s.pc, s.size_kind);
    return code == kMaxCodes ? 0 : id_of(s.node, code);
  }
  // The code site of a pattern (pc: kPatternPc | its pattern's index).
  uint32_t pattern_code(uint32_t size_kind, const PcPattern& pattern);
  // The plain site of the access under `site` that touched `byte`: site
  // itself, or for a pattern site, the site of its pc at that byte.
  uint64_t at_byte(uint64_t site, uint64_t byte);
  Site get(uint64_t id) const {
    if (id == 0) return {};
    const uint64_t code = (id - 1) & (kMaxCodes - 1);
    if (code >= codes_.size()) return {};
    return {static_cast<uint32_t>((id - 1) >> kCodeBits), codes_[code].size_kind, codes_[code].pc};
  }
  // Distinct instructions and access sizes met (code sites).
  size_t size() const { return codes_.size(); }
  // The code sites by index, for a recording's program info.
  std::vector<CodeSite> codes() const;

 private:
  struct Code {
    uint64_t pc;
    uint32_t size_kind;
    bool operator==(const Code&) const = default;
  };
  struct CodeHash {
    size_t operator()(const Code& c) const {
      return static_cast<size_t>(mix64(c.pc ^ (uint64_t{c.size_kind} * 0x9E3779B97F4A7C15ull)));
    }
  };
  std::vector<Code> codes_;
  std::unordered_map<Code, uint32_t, CodeHash> code_ids_;
  // Patterns are few (one per unrolled loop and start offset): a tree will do.
  std::vector<PcPattern> patterns_;
  std::map<PcPattern, uint64_t> pattern_ids_;
};

}  // namespace raceaccel::rt
