// What a recording made by the instrumentation runtime (record=) carries
// besides its events, so that `raceaccel check` can print the very report
// the live run printed: the site table (call-stack trie nodes and code sites
// with absolute pcs), the loaded modules (path, GNU build-id, address range)
// that turn those pcs into functions and lines, the threads (creation stack,
// OS tid, name, stack and TLS ranges, when they finished), the runtime's
// file-descriptor table and the ranges annotated benign. The events name
// sites by id (Event::site); the helpers below take an id apart.
//
// The trace format stores it in program-info blocks (binary_format.hpp,
// version 2); docs/trace-formats.md describes the records. Plain data: the
// runtime fills it in at the end of a run, the CLI reads it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/event.hpp"

namespace raceaccel {

// How an access came about. FreeWrite (free) and AllocWrite (malloc: the
// block is written by its allocator) are checked as a Write; the kind only
// changes how reports describe them. Alloc marks a heap block's Alloc event
// (its site is the allocation call). Atomic marks the site of an atomic
// operation's event.
enum class AccessKind : uint8_t { Read = 0, Write = 1, Alloc = 2, Atomic = 3, FreeWrite = 4, AllocWrite = 5 };
inline bool is_write(AccessKind k) {
  return k == AccessKind::Write || k == AccessKind::FreeWrite || k == AccessKind::AllocWrite;
}

// size_kind packs the access size (< 2^28) and its AccessKind in the top bits.
inline constexpr uint32_t kSizeBits = 28;
inline uint32_t pack_size_kind(uint32_t size, AccessKind k) { return size | (static_cast<uint32_t>(k) << kSizeBits); }
inline uint32_t unpack_size(uint32_t sk) { return sk & ((1u << kSizeBits) - 1); }
inline AccessKind unpack_kind(uint32_t sk) { return static_cast<AccessKind>(sk >> kSizeBits); }

// Site ids: 0 is "unknown", any other id is 1 + (node << kSiteCodeBits |
// code): node indexes ProgramInfo::nodes (the caller chain), code indexes
// ProgramInfo::codes (the instruction and the access size and kind).
inline constexpr unsigned kSiteCodeBits = 24;
inline constexpr uint64_t kMaxSiteCodes = uint64_t{1} << kSiteCodeBits;
inline uint64_t site_id(uint32_t node, uint32_t code) { return 1 + ((uint64_t{node} << kSiteCodeBits) | code); }
inline uint32_t site_node(uint64_t id) { return static_cast<uint32_t>((id - 1) >> kSiteCodeBits); }
inline uint32_t site_code(uint64_t id) { return static_cast<uint32_t>((id - 1) & (kMaxSiteCodes - 1)); }

// A loaded object as the symbolizer saw it: [low, high) is its mapping, the
// pcs of its code lie inside. build_id is the raw GNU build-id note (empty
// when the file has none).
struct ProgramModule {
  std::string path;
  std::string build_id;
  uint64_t low = 0, high = 0;
};

// A call-stack trie node: "called at pc (a return address) from parent".
struct StackNode {
  uint32_t parent = 0;
  uint64_t pc = 0;
};

// A code site: the instruction (the return address of its instrumentation
// callback) and the access's packed size and kind.
struct CodeSite {
  uint64_t pc = 0;
  uint32_t size_kind = 0;
};

inline constexpr uint64_t kNeverFinished = ~uint64_t{0};

struct ProgramThread {
  ThreadId tid = 0;
  ThreadId parent = 0;
  std::vector<uint64_t> create_stack;  // return addresses of the pthread_create call, innermost first
  int64_t os_tid = 0;
  std::string name;
  uint64_t stack_lo = 0, stack_hi = 0, tls_lo = 0, tls_hi = 0;
  // How many events the recording held when the thread finished:
  // events from this index on happened after it (kNeverFinished: never).
  uint64_t finished_at = kNeverFinished;
};

// AnnotateBenignRaceSized(addr, size), made when the recording held
// `from_event` events: races on those bytes from then on are not reported.
struct BenignRange {
  uint64_t addr = 0, size = 0, from_event = 0;
};

struct ProgramInfo {
  int64_t pid = 0;
  std::string runtime_module;  // base name of the runtime's own object: its frames are not shown
  // The runtime's file-descriptor table: entry i is at base + i * entry_bytes.
  uint64_t fd_table_base = 0, fd_entry_bytes = 0, fd_count = 0;
  std::vector<ProgramModule> modules;
  std::vector<StackNode> nodes;  // nodes[0] is the root (no frame)
  std::vector<CodeSite> codes;
  std::vector<ProgramThread> threads;
  std::vector<BenignRange> benign;
};

// The records of a program-info payload (docs/trace-formats.md).
std::vector<uint8_t> encode_program_info(const ProgramInfo& info);
// Throws std::runtime_error naming what is wrong with a damaged payload.
ProgramInfo decode_program_info(const uint8_t* data, size_t size);

}  // namespace raceaccel
