// A vector clock with implicitly-zero entries beyond its span, and the epoch
// (thread@clock) of FastTrack. Thread indices here are dense slots (see
// ThreadSlots), not the sparse ids of a trace.
//
// Memory is proportional to the non-zero entries, not to the highest slot:
// a clock is held densely (values by slot) while at least half of its span is
// non-zero (or the span is small), and sparsely (sorted slot/value pairs)
// otherwise. So a thread that has synchronized with few others costs a few
// words even when its slot is 100,000 (docs/detectors.md, "Memory").
#pragma once

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
  VectorClock(std::initializer_list<uint64_t> clocks);

  uint64_t get(size_t slot) const {
    if (!sparse_) return slot < c_.size() ? c_[slot] : 0;
    return sparse_get(slot);
  }
  void set(size_t slot, uint64_t value);
  void join(const VectorClock& other);
  // this ⊑ other (pointwise ≤).
  bool leq(const VectorClock& other) const;
  // e ≼ this.
  bool covers(Epoch e) const { return e.clock <= get(e.slot); }
  void clear() {
    c_.clear();
    sparse_ = false;
    nonzero_ = 0;
  }
  // clear() and give the memory back (a retired thread's clocks).
  void release() {
    std::vector<uint64_t>().swap(c_);
    sparse_ = false;
    nonzero_ = 0;
  }
  // One past the highest slot that may be non-zero.
  size_t size() const {
    if (!sparse_) return c_.size();
    return nonzero_ == 0 ? 0 : c_[2 * (nonzero_ - 1)] + 1;
  }
  bool is_zero() const { return nonzero_ == 0; }
  size_t nonzero() const { return nonzero_; }

  // Dense form: data()[slot] for slot < size(). Only while is_dense().
  bool is_dense() const { return !sparse_; }
  const uint64_t* data() const { return c_.data(); }
  // Calls f(slot, value) for every non-zero entry, in slot order.
  template <typename F>
  void for_each(F&& f) const {
    if (sparse_) {
      for (size_t i = 0; i < nonzero_; ++i) f(static_cast<uint32_t>(c_[2 * i]), c_[2 * i + 1]);
    } else {
      for (size_t s = 0; s < c_.size(); ++s) {
        if (c_[s] != 0) f(static_cast<uint32_t>(s), c_[s]);
      }
    }
  }
  // The values by slot, 0 .. size()-1 (tests, reports).
  std::vector<uint64_t> dense() const;
  // Heap bytes held (memory accounting in tests).
  size_t heap_bytes() const { return c_.capacity() * sizeof(uint64_t); }

  // Equality ignores zeros: ⟨4,0⟩ == ⟨4⟩.
  friend bool operator==(const VectorClock& a, const VectorClock& b);
  std::string to_string() const;  // "⟨4,0,7⟩"

 private:
  uint64_t sparse_get(size_t slot) const;
  // Sparse form: the index of the first pair whose slot is >= slot.
  size_t pair_index(size_t slot) const;
  // Whether a clock with `nonzero` entries over `span` slots is held densely.
  static bool dense_fits(size_t nonzero, size_t span) { return span <= kSmallSpan || span <= 2 * nonzero; }
  // Re-forms the clock from sorted non-zero (slot, value) pairs.
  void assign_pairs(const std::vector<uint64_t>& pairs);
  void to_sparse();
  void to_dense();

  static constexpr size_t kSmallSpan = 16;
  // Dense: values by slot. Sparse: slot0, value0, slot1, value1, ... sorted
  // by slot, values non-zero.
  std::vector<uint64_t> c_;
  uint32_t nonzero_ = 0;  // non-zero entries
  bool sparse_ = false;
};

}  // namespace raceaccel
