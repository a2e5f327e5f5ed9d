// An open-addressed index from keys to the 32-bit ids under which their
// owner stores them (the stack trie's nodes).
//
// Each slot holds an id and 32 bits of its key's hash, so a probe reads the
// owner's key only when those bits match: a lookup is usually one cache
// miss (its slot), where a slot of ids alone costs one more per probe (the
// key of every id it passes). Recursive code adds a node at nearly every
// call (each call path is a new stack node); 8 bytes a slot at most half
// full is also less than a node-based map's node and bucket. Linear
// probing, doubled at half load; no removal. (The site depot keeps 4-byte
// slots of ids alone: it holds many more keys, and its memory counts more
// than the probes.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace raceaccel::rt {

// A 64-bit finalizer (MurmurHash3's): every input bit reaches every output
// bit, so both halves of the result are usable (IdIndex's slot and tag).
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ull;
  return x ^ (x >> 33);
}

class IdIndex {
 public:
  IdIndex() : slots_(kInitialSlots, 0) {}

  // The id whose key hashes to h and satisfies is_key(id), or 0 (ids start at 1).
  template <typename IsKey>
  uint32_t find(uint64_t h, IsKey&& is_key) const {
    const uint32_t tag = tag_of(h);
    for (size_t i = home(h);; i = next(i)) {
      const uint64_t slot = slots_[i];
      if (slot == 0) return 0;
      if (static_cast<uint32_t>(slot >> 32) == tag && is_key(static_cast<uint32_t>(slot))) {
        return static_cast<uint32_t>(slot);
      }
    }
  }
  // Adds id (non-zero, not yet present) for a key hashing to h; hash_of(i)
  // gives the hash of every id i already added, for growing.
  template <typename HashOf>
  void add(uint64_t h, uint32_t id, HashOf&& hash_of) {
    if (2 * (used_ + 1) > slots_.size()) {
      std::vector<uint64_t> old(2 * slots_.size(), 0);
      old.swap(slots_);
      for (const uint64_t slot : old) {
        if (slot != 0) place(hash_of(static_cast<uint32_t>(slot)), static_cast<uint32_t>(slot));
      }
    }
    place(h, id);
    ++used_;
  }

 private:
  static constexpr size_t kInitialSlots = 1024;
  // The slot from the high bits, the tag from the low ones: independent
  // when h comes from a multiplicative hash mixed as the owners do.
  size_t home(uint64_t h) const { return static_cast<size_t>(h >> 32) & (slots_.size() - 1); }
  static uint32_t tag_of(uint64_t h) { return static_cast<uint32_t>(h); }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }
  void place(uint64_t h, uint32_t id) {
    size_t i = home(h);
    while (slots_[i] != 0) i = next(i);
    slots_[i] = (uint64_t{tag_of(h)} << 32) | id;
  }

  std::vector<uint64_t> slots_;  // tag << 32 | id; 0: empty
  size_t used_ = 0;
};

}  // namespace raceaccel::rt
