// sample=RATE: CARISMA-style sampling of plain accesses (imprecise, off by
// default; docs/runtime.md, "Sampling").
//
// Memory is grouped into *contexts*: a heap block's context is its
// allocation statement (the return address of its malloc/new call); other
// memory (globals, stacks, TLS, blocks the runtime did not see allocated)
// has one context per 1 MiB of address space. Each context has a rate,
// recomputed as the run goes by CARISMA's water-filling (sample_budget.hpp)
// from the accesses seen so far per context, so that about RATE of all
// accesses are checked: rarely accessed contexts are checked fully, hot
// ones sampled down. Within a context the sampled *units* are whole small
// blocks (up to 4 KiB) or 4 KiB pages: a unit is checked iff a seeded hash
// of it falls below its context's rate, so every access to a kept unit is
// checked (FastTrack's precision on it) and a unit dropped at one rate is
// also dropped at any lower rate.
//
// The decision is taken at drain time (Checker::drain_locked), for plain
// reads and writes only: allocation and free writes, atomics and every
// synchronization event are always checked. Dropping accesses can only
// miss races, never report a false one (the argument is in the docs).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/heap_registry.hpp"
#include "runtime/internal_mutex.hpp"
#include "runtime/options.hpp"

namespace raceaccel::rt {

class Sampler {
 public:
  static constexpr uint32_t kMaxContexts = 4096;  // more sites share the last one
  static constexpr uint64_t kUnitBytes = 4096;

  Sampler(double rate, uint64_t seed, HeapRegistry& heap);

  // Whether the plain access whose checked bytes start at addr is checked;
  // counts it in its context. Any thread, during a drain.
  bool checks(uint64_t addr);
  // Accesses a drain did not check (for verbosity=1).
  void add_dropped(uint64_t n) { dropped_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  uint32_t contexts() const { return contexts_.load(std::memory_order_relaxed); }
  double rate() const { return rate_; }

  // The context of a heap block allocated at pc / of other memory at addr
  // (public for the per-thread span cache in sampling.cpp).
  uint32_t heap_context(uint64_t alloc_pc) { return context_of(alloc_pc & ~kStaticKey); }
  uint32_t static_context(uint64_t addr) { return context_of(kStaticKey | (addr >> 20)); }
  // Adds n accesses to context c's population; rebalances the rates now
  // and then.
  void count(uint32_t c, uint64_t n);
  bool keeps_unit(uint32_t c, uint64_t unit) const;
  HeapRegistry& heap() { return heap_; }

 private:
  static constexpr uint64_t kStaticKey = uint64_t{1} << 63;
  static constexpr uint64_t kAlways = uint64_t{1} << 32;  // threshold of rate 1
  // Rates are recomputed when the accesses counted reach 256, then each
  // time they grow by a quarter: a short program is sampled too, and a long
  // one rebalances O(log n) times.
  static constexpr uint64_t kFirstRebalance = 256;
  uint32_t context_of(uint64_t key);
  void rebalance();

  const double rate_;
  const uint64_t seed_;
  HeapRegistry& heap_;
  // The context table: keys under mu_ (only on a cache miss); populations
  // and thresholds read and added to without it.
  InternalMutex mu_;
  static constexpr uint32_t kKeySlots = 2 * kMaxContexts;
  std::array<uint64_t, kKeySlots> keys_{};       // key + 1 (0: empty)
  std::array<uint32_t, kKeySlots> key_index_{};  // its context
  std::atomic<uint32_t> contexts_{0};
  std::array<std::atomic<uint64_t>, kMaxContexts> population_{};
  std::array<std::atomic<uint64_t>, kMaxContexts> threshold_{};  // keep a unit iff hash32 < threshold
  std::atomic<uint64_t> total_{0};
  std::atomic<uint64_t> next_rebalance_{kFirstRebalance};
  std::atomic<bool> rebalancing_{false};
  std::atomic<uint64_t> dropped_{0};
};

// The sampler of options.sample (< 1), seeded with options.sample_seed, or
// when that is 0 with a new seed per run (so that repeated runs check
// different units, as CARISMA's repeated trials do).
std::unique_ptr<Sampler> make_sampler(const RuntimeOptions& options, HeapRegistry& heap);

// The verbosity=1 line: accesses sampled out and the share checked.
std::string sampling_statistics(double rate, uint64_t checked, uint64_t sampled_out);

}  // namespace raceaccel::rt
