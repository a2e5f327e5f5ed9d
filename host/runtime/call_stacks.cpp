#include "runtime/call_stacks.hpp"

namespace raceaccel::rt {

StackTrie::StackTrie() { nodes_.push_back({0, 0}); }

uint32_t StackTrie::child(uint32_t parent, uint64_t pc) {
  InternalLock lock(mu_);
  const uint64_t h = hash(parent, pc);
  const uint32_t known =
      index_.find(h, [&](uint32_t id) { return nodes_[id].parent == parent && nodes_[id].pc == pc; });
  if (known != 0) return known;
  // Recursion can make the number of distinct paths exponential (each call
  // of a doubly recursive function is a new path): past the limit a new
  // path stays at its deepest known ancestor, and its stacks are truncated.
  if (nodes_.size() >= kMaxNodes) return parent;
  const auto id = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back({parent, pc});
  index_.add(h, id, [&](uint32_t i) { return hash(nodes_[i].parent, nodes_[i].pc); });
  return id;
}

std::vector<uint64_t> StackTrie::frames(uint32_t node) {
  InternalLock lock(mu_);
  std::vector<uint64_t> out;
  while (node != 0 && node < nodes_.size()) {
    out.push_back(nodes_[node].pc);
    node = nodes_[node].parent;
  }
  return out;
}

uint64_t SiteDepot::intern(const Site& s) {
  size_t i = home(s);
  for (;; i = (i + 1) & (slots_.size() - 1)) {
    const uint32_t id = slots_[i];
    if (id == 0) break;
    const Site& known = sites_[id];
    if (known.pc == s.pc && known.node == s.node && known.size_kind == s.size_kind) return id;
  }
  const auto id = static_cast<uint32_t>(sites_.size());
  sites_.push_back(s);
  if (2 * sites_.size() > slots_.size()) {  // rebuild twice as large, from the ids
    slots_.assign(2 * slots_.size(), 0);
    for (uint32_t known = 1; known <= id; ++known) place(sites_[known], known);
  } else {
    slots_[i] = id;
  }
  return id;
}

uint64_t SiteDepot::intern(uint32_t node, uint32_t size_kind, const PcPattern& pattern) {
  const auto [it, fresh] = pattern_ids_.try_emplace(pattern, patterns_.size());
  if (fresh) patterns_.push_back(pattern);
  return intern(Site{node, size_kind, kPatternPc | it->second});
}

uint64_t SiteDepot::at_byte(uint64_t site, uint64_t byte) {
  if (site >= sites_.size() || (sites_[site].pc & kPatternPc) == 0) return site;
  const Site s = sites_[site];  // a copy: interning below may move sites_
  const PcPattern& p = patterns_[s.pc & ~kPatternPc];
  return intern(Site{s.node, s.size_kind, p.pcs[(byte - p.offset) / p.unit % p.period]});
}

void SiteDepot::place(const Site& s, uint32_t id) {
  size_t i = home(s);
  while (slots_[i] != 0) i = (i + 1) & (slots_.size() - 1);
  slots_[i] = id;
}

}  // namespace raceaccel::rt
