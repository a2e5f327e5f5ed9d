#include "core/symbols.hpp"

#include <fmt/format.h>

namespace raceaccel {

// The key folds kind into id; a collision (two ids mapping to one key) is
// possible only for ids above 2^64/3, so we keep a second map that stores
// the original id and fall back to a linear scan on mismatch.
void SymbolTable::set(SymbolKind kind, uint64_t id, std::string name) {
  const uint64_t k = key(kind, id);
  auto [it, inserted] = ids_.try_emplace(k, id);
  entries_.push_back({kind, id, std::move(name)});
  if (inserted || it->second == id) index_[k] = entries_.size() - 1;
}

const std::string* SymbolTable::find(SymbolKind kind, uint64_t id) const {
  const uint64_t k = key(kind, id);
  auto it = index_.find(k);
  if (it != index_.end() && entries_[it->second].id == id && entries_[it->second].kind == kind) {
    return &entries_[it->second].name;
  }
  if (it == index_.end()) return nullptr;
  for (auto e = entries_.rbegin(); e != entries_.rend(); ++e) {
    if (e->kind == kind && e->id == id) return &e->name;
  }
  return nullptr;
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
