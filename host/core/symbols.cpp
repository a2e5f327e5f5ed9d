#include "core/symbols.hpp"

#include <fmt/format.h>

namespace raceaccel {

void SymbolTable::set(SymbolKind kind, uint64_t id, std::string name) {
  entries_.push_back({kind, id, std::move(name)});
  index_[static_cast<size_t>(kind)][id] = entries_.size() - 1;
}

const std::string* SymbolTable::find(SymbolKind kind, uint64_t id) const {
  const auto& index = index_[static_cast<size_t>(kind)];
  auto it = index.find(id);
  return it == index.end() ? nullptr : &entries_[it->second].name;
}

std::string SymbolTable::thread_name(ThreadId tid) const {
  if (const auto* n = find(SymbolKind::Thread, tid)) return *n;
  return fmt::format("T{}", tid);
}

std::string SymbolTable::sync_name(uint64_t id) const {
  if (const auto* n = find(SymbolKind::SyncObject, id)) return *n;
  return fmt::format("L{}", id);
}

std::string SymbolTable::location_name(uint64_t addr) const {
  if (const auto* n = find(SymbolKind::Location, addr)) return *n;
  return fmt::format("{:#x}", addr);
}

}  // namespace raceaccel
