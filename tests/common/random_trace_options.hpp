// Generator options for randomized differential tests: per seed, a thread
// count up to 12 (beyond a device's slots now and then), a trace length in
// [min_events, max_events], and every kind of event weighted at random,
// with a few locking mistakes (races), sometimes atomics, and sometimes
// locks destroyed or freed between uses.
#pragma once

#include <cstdint>
#include <random>

#include "gen/generator.hpp"

namespace raceaccel::test {

inline GeneratorOptions random_trace_options(uint64_t seed, uint64_t min_events, uint64_t max_events) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  GeneratorOptions o;
  o.seed = seed;
  o.threads = static_cast<uint32_t>(pick(2, 12));
  o.events = pick(min_events, max_events);
  o.local_weight = static_cast<uint32_t>(pick(0, 40));
  o.locked_weight = static_cast<uint32_t>(pick(0, 50));
  o.shared_weight = static_cast<uint32_t>(pick(5, 40));
  o.racy_weight = static_cast<uint32_t>(pick(1, 10));
  o.extras_weight = static_cast<uint32_t>(pick(5, 40));
  o.mistake_percent = static_cast<uint32_t>(pick(0, 5));
  o.locks = static_cast<uint32_t>(pick(1, 8));
  o.atomic_mixing = pick(0, 2) != 0;
  o.lock_lifecycle = pick(0, 2) == 0;
  return o;
}

// The offload suites' traces (offload_differential_test, multi_device_test):
// up to max_threads threads, 1,500-4,000 events plus 8 per thread, every
// kind of event weighted at random, sometimes STD-only, sometimes atomic and
// plain accesses to the same variables, sometimes locks destroyed or freed
// between uses.
inline GeneratorOptions offload_random_trace(uint64_t seed, uint32_t max_threads) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  GeneratorOptions o;
  o.seed = seed;
  o.threads = static_cast<uint32_t>(pick(2, max_threads));
  o.events = pick(1500, 4000) + o.threads * 8;
  o.local_weight = static_cast<uint32_t>(pick(0, 40));
  o.locked_weight = static_cast<uint32_t>(pick(0, 50));
  o.shared_weight = static_cast<uint32_t>(pick(0, 30));
  o.racy_weight = static_cast<uint32_t>(pick(1, 10));
  o.extras_weight = static_cast<uint32_t>(pick(5, 40));
  o.mistake_percent = static_cast<uint32_t>(pick(0, 5));
  o.locks = static_cast<uint32_t>(pick(1, 12));
  o.std_only = pick(0, 7) == 0;
  o.atomic_mixing = pick(0, 1) == 0;
  o.lock_lifecycle = pick(0, 2) == 0;
  return o;
}

}  // namespace raceaccel::test
