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

std::vector<StackNode> StackTrie::nodes() {
  InternalLock lock(mu_);
  std::vector<StackNode> out;
  out.reserve(nodes_.size());
  for (const Node& n : nodes_) out.push_back({n.parent, n.pc});
  return out;
}

std::vector<CodeSite> SiteDepot::codes() const {
  std::vector<CodeSite> out;
  out.reserve(codes_.size());
  for (const Code& c : codes_) out.push_back({c.pc, c.size_kind});
  return out;
}

uint32_t SiteDepot::code_of(uint64_t pc, uint32_t size_kind) {
  const auto [it, fresh] = code_ids_.try_emplace(Code{pc, size_kind}, static_cast<uint32_t>(codes_.size()));
  if (fresh) {
    if (codes_.size() == kMaxCodes) {
      code_ids_.erase(it);
      return static_cast<uint32_t>(kMaxCodes);
    }
    codes_.push_back({pc, size_kind});
  }
  return it->second;
}

uint32_t SiteDepot::pattern_code(uint32_t size_kind, const PcPattern& pattern) {
  const auto [it, fresh] = pattern_ids_.try_emplace(pattern, patterns_.size());
  if (fresh) patterns_.push_back(pattern);
  return code_of(kPatternPc | it->second, size_kind);
}

uint64_t SiteDepot::at_byte(uint64_t site, uint64_t byte) {
  const Site s = get(site);
  if ((s.pc & kPatternPc) == 0) return site;
  const PcPattern& p = patterns_[s.pc & ~kPatternPc];
  return intern(Site{s.node, s.size_kind, p.pcs[(byte - p.offset) / p.unit % p.period]});
}

}  // namespace raceaccel::rt
