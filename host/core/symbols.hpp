// Human-readable names for the numeric ids in events: thread names, lock and
// barrier names, and names of symbolic locations (STD variables).
//
// Entries are kept in insertion order so that a streaming writer can emit the
// names it has not yet written before the first event that uses them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"

namespace raceaccel {

enum class SymbolKind : uint8_t { Thread, SyncObject, Location };
inline constexpr size_t kSymbolKindCount = 3;

struct Symbol {
  SymbolKind kind;
  uint64_t id;  // thread id, sync object id, or location address
  std::string name;
};

class SymbolTable {
 public:
  // Adds or renames the entry. Later lookups return the newest name.
  void set(SymbolKind kind, uint64_t id, std::string name);
  const std::string* find(SymbolKind kind, uint64_t id) const;

  // Names for reports: the recorded name, else a canonical spelling
  // ("T3", "L7", "0x7f00001000").
  std::string thread_name(ThreadId tid) const;
  std::string sync_name(uint64_t id) const;
  std::string location_name(uint64_t addr) const;

  const std::vector<Symbol>& entries() const { return entries_; }

 private:
  std::vector<Symbol> entries_;
  std::array<std::unordered_map<uint64_t, size_t>, kSymbolKindCount> index_;  // per kind: id → newest entry
};

}  // namespace raceaccel
