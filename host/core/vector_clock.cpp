#include "core/vector_clock.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace raceaccel {

VectorClock::VectorClock(std::initializer_list<uint64_t> clocks) : c_(clocks) {
  for (uint64_t v : c_) nonzero_ += v != 0 ? 1 : 0;
}

size_t VectorClock::pair_index(size_t slot) const {
  size_t lo = 0, hi = nonzero_;  // binary search over the (slot, value) pairs
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (c_[2 * mid] < slot) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

uint64_t VectorClock::sparse_get(size_t slot) const {
  const size_t i = pair_index(slot);
  return i < nonzero_ && c_[2 * i] == slot ? c_[2 * i + 1] : 0;
}

void VectorClock::set(size_t slot, uint64_t value) {
  if (!sparse_) {
    if (slot < c_.size()) {
      nonzero_ += (value != 0) - (c_[slot] != 0);
      c_[slot] = value;
      return;
    }
    if (value == 0) return;
    if (dense_fits(nonzero_ + 1, slot + 1)) {
      c_.resize(slot + 1, 0);
      c_[slot] = value;
      ++nonzero_;
      return;
    }
    to_sparse();
  }
  // Sparse: find the pair, or where it goes.
  const size_t lo = pair_index(slot);
  const bool found = lo < nonzero_ && c_[2 * lo] == slot;
  if (found && value != 0) {
    c_[2 * lo + 1] = value;
  } else if (found) {
    c_.erase(c_.begin() + static_cast<ptrdiff_t>(2 * lo), c_.begin() + static_cast<ptrdiff_t>(2 * lo + 2));
    --nonzero_;
  } else if (value != 0) {
    c_.insert(c_.begin() + static_cast<ptrdiff_t>(2 * lo), {static_cast<uint64_t>(slot), value});
    ++nonzero_;
  }
  if (dense_fits(nonzero_, size())) to_dense();
}

void VectorClock::join(const VectorClock& other) {
  if (!sparse_ && !other.sparse_) {
    const size_t n = other.c_.size();
    if (n <= c_.size() || dense_fits(nonzero_ + other.nonzero_, n)) {  // the common case: both dense
      if (n > c_.size()) c_.resize(n, 0);
      // Branch-free: which entries grow is data-dependent and unpredictable
      // (lock and barrier clocks joined into thread clocks).
      uint32_t gained = 0;
      uint64_t* mine = c_.data();
      const uint64_t* theirs = other.c_.data();
      for (size_t i = 0; i < n; ++i) {
        const uint64_t a = mine[i];
        const uint64_t b = theirs[i];
        gained += static_cast<uint32_t>((a == 0) & (b != 0));
        mine[i] = a > b ? a : b;
      }
      nonzero_ += gained;
      return;
    }
  }
  if (other.nonzero_ == 0) return;
  if (!sparse_ && dense_fits(nonzero_ + other.nonzero_, std::max(c_.size(), other.size()))) {
    // A dense clock gaining a few entries (a parent joining a sparse child):
    // O(the other's entries), not O(this span).
    if (other.size() > c_.size()) c_.resize(other.size(), 0);
    other.for_each([&](uint32_t s, uint64_t v) {
      if (v > c_[s]) {
        nonzero_ += c_[s] == 0;
        c_[s] = v;
      }
    });
    return;
  }
  // Merge the non-zero entries of both.
  std::vector<uint64_t> merged;
  merged.reserve(2 * (nonzero_ + other.nonzero_));
  std::vector<uint64_t> mine;
  mine.reserve(2 * nonzero_);
  for_each([&](uint32_t s, uint64_t v) { mine.insert(mine.end(), {s, v}); });
  size_t i = 0;
  other.for_each([&](uint32_t s, uint64_t v) {
    while (i < mine.size() && mine[i] < s) {
      merged.insert(merged.end(), {mine[i], mine[i + 1]});
      i += 2;
    }
    if (i < mine.size() && mine[i] == s) {
      merged.insert(merged.end(), {s, std::max(v, mine[i + 1])});
      i += 2;
    } else {
      merged.insert(merged.end(), {s, v});
    }
  });
  merged.insert(merged.end(), mine.begin() + static_cast<ptrdiff_t>(i), mine.end());
  assign_pairs(merged);
}

bool VectorClock::leq(const VectorClock& other) const {
  if (!sparse_) {
    for (size_t i = 0; i < c_.size(); ++i) {
      if (c_[i] > other.get(i)) return false;
    }
    return true;
  }
  for (size_t i = 0; i < nonzero_; ++i) {
    if (c_[2 * i + 1] > other.get(c_[2 * i])) return false;
  }
  return true;
}

bool operator==(const VectorClock& a, const VectorClock& b) {
  if (a.nonzero_ != b.nonzero_) return false;
  bool equal = true;
  a.for_each([&](uint32_t s, uint64_t v) { equal = equal && b.get(s) == v; });
  return equal;
}

std::vector<uint64_t> VectorClock::dense() const {
  std::vector<uint64_t> v(size(), 0);
  for_each([&](uint32_t s, uint64_t value) { v[s] = value; });
  return v;
}

void VectorClock::assign_pairs(const std::vector<uint64_t>& pairs) {
  nonzero_ = static_cast<uint32_t>(pairs.size() / 2);
  const size_t span = pairs.empty() ? 0 : pairs[pairs.size() - 2] + 1;
  if (dense_fits(nonzero_, span)) {
    c_.assign(span, 0);
    for (size_t i = 0; i < pairs.size(); i += 2) c_[pairs[i]] = pairs[i + 1];
    sparse_ = false;
  } else {
    c_ = pairs;
    sparse_ = true;
  }
}

void VectorClock::to_sparse() {
  std::vector<uint64_t> pairs;
  pairs.reserve(2 * nonzero_ + 2);
  for_each([&](uint32_t s, uint64_t v) { pairs.insert(pairs.end(), {s, v}); });
  c_.swap(pairs);
  sparse_ = true;
}

void VectorClock::to_dense() {
  std::vector<uint64_t> values(size(), 0);
  for_each([&](uint32_t s, uint64_t v) { values[s] = v; });
  c_.swap(values);
  sparse_ = false;
}

std::string VectorClock::to_string() const { return fmt::format("<{}>", fmt::join(dense(), ",")); }

}  // namespace raceaccel
