#include "runtime/sampling.hpp"

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/id_index.hpp"
#include "runtime/sample_budget.hpp"

namespace raceaccel::rt {
namespace {

// Per draining thread, the spans (a heap block, or a gap between blocks)
// its last drains looked up, one slot per 4 KiB page of address: a loop over
// an array asks the heap registry (a lock and a map search) once per page,
// not per access. A span is valid while the registry's version is the one
// it was read at. Populations are counted here and added to the shared
// counters in batches, so threads that drain at once do not bounce a cache
// line per access. A stale span only changes which accesses are dropped,
// never whether a reported race is real (any subset of accesses is sound).
struct CachedSpan {
  uint64_t lo = 0, hi = 0;  // empty when lo == hi
  uint64_t version = 0;
  uint64_t block = 0;  // a block of at most kUnitBytes: its address (one unit); else 0
  uint32_t context = 0;
  uint32_t pending = 0;  // accesses counted, not yet added to the context
};
constexpr uint32_t kSpanSlots = 64;
constexpr uint32_t kPendingBatch = 16;
thread_local CachedSpan t_spans[kSpanSlots];

}  // namespace

Sampler::Sampler(double rate, uint64_t seed, HeapRegistry& heap) : rate_(rate), seed_(seed), heap_(heap) {
  for (auto& t : threshold_) t.store(kAlways, std::memory_order_relaxed);
}

uint32_t Sampler::context_of(uint64_t key) {
  InternalLock lock(mu_);
  uint32_t slot = static_cast<uint32_t>(mix64(key)) & (kKeySlots - 1);
  while (keys_[slot] != 0) {
    if (keys_[slot] == key + 1) return key_index_[slot];
    slot = (slot + 1) & (kKeySlots - 1);
  }
  const uint32_t n = contexts_.load(std::memory_order_relaxed);
  if (n == kMaxContexts)
    return kMaxContexts - 1;  // full: the last context takes the rest (the table keeps its slots free)
  keys_[slot] = key + 1;
  key_index_[slot] = n;
  contexts_.store(n + 1, std::memory_order_relaxed);
  return n;
}

bool Sampler::keeps_unit(uint32_t c, uint64_t unit) const {
  return (mix64(unit ^ seed_) >> 32) < threshold_[c].load(std::memory_order_relaxed);
}

void Sampler::count(uint32_t c, uint64_t n) {
  population_[c].fetch_add(n, std::memory_order_relaxed);
  const uint64_t total = total_.fetch_add(n, std::memory_order_relaxed) + n;
  if (total < next_rebalance_.load(std::memory_order_relaxed)) return;
  if (rebalancing_.exchange(true, std::memory_order_acquire)) return;  // another thread does it
  next_rebalance_.store(total + std::max<uint64_t>(total / 4, kFirstRebalance), std::memory_order_relaxed);
  rebalance();
  rebalancing_.store(false, std::memory_order_release);
}

// CARISMA's GlobalUpdate within one run: the budget is RATE of the accesses
// seen so far, spread evenly over the contexts (water-filling).
void Sampler::rebalance() {
  const uint32_t n = contexts_.load(std::memory_order_relaxed);
  std::vector<uint64_t> populations(n);
  uint64_t total = 0;
  for (uint32_t i = 0; i < n; ++i) total += populations[i] = population_[i].load(std::memory_order_relaxed);
  const std::vector<double> rates = water_fill_rates(populations, rate_ * static_cast<double>(total));
  for (uint32_t i = 0; i < n; ++i) {
    const auto threshold = static_cast<uint64_t>(std::ceil(rates[i] * static_cast<double>(kAlways)));
    threshold_[i].store(std::min(threshold, kAlways), std::memory_order_relaxed);
  }
}

bool Sampler::checks(uint64_t addr) {
  CachedSpan& s = t_spans[(addr / kUnitBytes) % kSpanSlots];
  const uint64_t version = heap_.version();
  if (addr - s.lo >= s.hi - s.lo || s.version != version) {
    if (s.pending != 0) count(s.context, s.pending);
    const HeapRegistry::Span span = heap_.span_at(addr);
    s.version = version;
    s.pending = 0;
    if (span.block) {
      s.lo = span.lo;
      s.hi = span.hi;
      s.block = span.block->size <= kUnitBytes ? span.block->addr : 0;
      s.context = heap_context(span.block->pc);
    } else {
      // Other memory: the gap within this page (a block may start in it).
      const uint64_t page = addr & ~(kUnitBytes - 1);
      s.lo = std::max(span.lo, page);
      s.hi = std::min(span.hi, page + kUnitBytes);
      s.block = 0;
      s.context = static_context(addr);
    }
  }
  if (++s.pending == kPendingBatch) {
    count(s.context, s.pending);
    s.pending = 0;
  }
  // Pages are tagged apart from small blocks' addresses.
  return keeps_unit(s.context, s.block != 0 ? s.block : (addr / kUnitBytes) | (uint64_t{1} << 62));
}

std::unique_ptr<Sampler> make_sampler(const RuntimeOptions& options, HeapRegistry& heap) {
  uint64_t seed = options.sample_seed;
  if (seed == 0) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    seed = mix64(static_cast<uint64_t>(getpid()) << 32 ^ static_cast<uint64_t>(now.tv_sec) * 1000000000ull ^
                 static_cast<uint64_t>(now.tv_nsec));
  }
  return std::make_unique<Sampler>(options.sample, seed, heap);
}

std::string sampling_statistics(double rate, uint64_t checked, uint64_t sampled_out) {
  const uint64_t all = checked + sampled_out;
  const double share = all == 0 ? 100.0 : 100.0 * static_cast<double>(checked) / static_cast<double>(all);
  return fmt::format("raceaccel: sample={}: {} accesses sampled out, {:.1f} % of buffered accesses checked\n", rate,
                     sampled_out, share);
}

}  // namespace raceaccel::rt
