#include "core/retired_clocks.hpp"

#include <algorithm>
#include <unordered_set>

namespace raceaccel {

uint32_t RetiredClocks::retire(const VectorClock& clock) {
  Record record;
  record.previous = records_.empty() ? kNone : static_cast<uint32_t>(records_.size() - 1);
  clock.for_each([&](uint32_t s, uint64_t v) {
    if (last_.get(s) != v) record.changes.insert(record.changes.end(), {s, v});
  });
  last_.for_each([&](uint32_t s, uint64_t) {
    if (clock.get(s) == 0) record.changes.insert(record.changes.end(), {s, 0});
  });
  since_snapshot_ += record.changes.size() / 2;
  if (record.previous == kNone) {  // the first record: a difference from nothing, the whole clock
    since_snapshot_ = 0;
  } else if (since_snapshot_ >= clock.nonzero()) {  // a snapshot: the whole clock
    record.previous = kNone;
    record.changes.clear();
    clock.for_each([&](uint32_t s, uint64_t v) { record.changes.insert(record.changes.end(), {s, v}); });
    since_snapshot_ = 0;
  }
  record.changes.shrink_to_fit();
  records_.push_back(std::move(record));
  last_ = clock;
  return static_cast<uint32_t>(records_.size() - 1);
}

VectorClock RetiredClocks::restore(uint32_t id) const {
  // The newest change of each slot along the chain is its value.
  std::unordered_set<uint64_t> decided;
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  for (uint32_t r = id; r != kNone; r = records_[r].previous) {
    const std::vector<uint64_t>& changes = records_[r].changes;
    for (size_t i = 0; i < changes.size(); i += 2) {
      if (decided.insert(changes[i]).second && changes[i + 1] != 0) entries.emplace_back(changes[i], changes[i + 1]);
    }
  }
  std::sort(entries.begin(), entries.end());
  VectorClock clock;
  for (const auto& [slot, value] : entries) clock.set(slot, value);
  return clock;
}

size_t RetiredClocks::stored_entries() const {
  size_t n = 0;
  for (const Record& r : records_) n += r.changes.size() / 2;
  return n;
}

size_t RetiredClocks::heap_bytes() const {
  size_t n = records_.capacity() * sizeof(Record) + last_.heap_bytes();
  for (const Record& r : records_) n += r.changes.capacity() * sizeof(uint64_t);
  return n;
}

}  // namespace raceaccel
