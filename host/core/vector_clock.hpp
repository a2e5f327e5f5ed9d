// A vector clock with implicitly-zero entries beyond its stored length, and
// the epoch (thread@clock) of FastTrack. Thread indices here are dense slots
// (see ThreadSlots), not the sparse ids of a trace.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace raceaccel {

struct Epoch {
  uint32_t slot = 0;
  uint64_t clock = 0;  // 0 is the minimal epoch ⊥e
  bool operator==(const Epoch&) const = default;
};

class VectorClock {
 public:
  VectorClock() = default;
  VectorClock(std::initializer_list<uint64_t> clocks) : c_(clocks) {}

  uint64_t get(size_t slot) const { return slot < c_.size() ? c_[slot] : 0; }
  void set(size_t slot, uint64_t value) {
    if (slot >= c_.size()) c_.resize(slot + 1, 0);
    c_[slot] = value;
  }
  void join(const VectorClock& other) {
    if (other.c_.size() > c_.size()) c_.resize(other.c_.size(), 0);
    for (size_t i = 0; i < other.c_.size(); ++i) c_[i] = std::max(c_[i], other.c_[i]);
  }
  // this ⊑ other (pointwise ≤).
  bool leq(const VectorClock& other) const {
    for (size_t i = 0; i < c_.size(); ++i) {
      if (c_[i] > other.get(i)) return false;
    }
    return true;
  }
  // e ≼ this.
  bool covers(Epoch e) const { return e.clock <= get(e.slot); }
  void clear() { c_.clear(); }
  size_t size() const { return c_.size(); }
  bool is_zero() const {
    return std::all_of(c_.begin(), c_.end(), [](uint64_t v) { return v == 0; });
  }

  // Equality ignores trailing zeros: ⟨4,0⟩ == ⟨4⟩.
  friend bool operator==(const VectorClock& a, const VectorClock& b) {
    const size_t n = std::max(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
      if (a.get(i) != b.get(i)) return false;
    }
    return true;
  }
  std::string to_string() const;  // "⟨4,0,7⟩"

  const std::vector<uint64_t>& raw() const { return c_; }
  std::vector<uint64_t>& raw() { return c_; }

 private:
  std::vector<uint64_t> c_;
};

}  // namespace raceaccel
