// Synthetic traces for tests and benchmarks.
//
// A seeded simulation of `threads` threads interleaved at random. Each step a
// runnable thread performs one action of one pattern, chosen by weight:
//   local     thread-private data (never races)
//   locked    critical sections over a lock's data (races only when a thread
//             "forgets" the lock, with probability mistake_percent)
//   shared    reads of data the main thread wrote before forking
//   racy      unsynchronized reads and writes of a small shared region
//   extras    rwlocks, atomics publication (release/acquire, relaxed,
//             fences, release sequences), barrier rounds, heap reuse
//             through alloc/free; with atomic_mixing, atomic and plain
//             accesses to the same variables
// Thread 0 forks the others at the start and joins them at the end. The
// generator streams: memory use does not grow with the event count.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/event.hpp"
#include "core/symbols.hpp"

namespace raceaccel {

struct GeneratorOptions {
  uint32_t threads = 4;
  uint64_t events = 10000;
  uint64_t seed = 1;
  uint32_t local_weight = 30;
  uint32_t locked_weight = 35;
  uint32_t shared_weight = 15;
  uint32_t racy_weight = 5;
  uint32_t extras_weight = 15;   // ignored when std_only
  uint32_t mistake_percent = 1;  // of critical-section accesses made without the lock
  uint32_t locks = 8;
  // Only operations STD can express (r, w, acq, rel, fork, join), on 1-byte
  // named variables, so the trace converts to RAPID's format.
  bool std_only = false;
  // Adds a pattern to the extras: atomic and plain accesses of mixed sizes
  // to the same variables (plain-vs-atomic races, atomic-vs-atomic
  // non-races). Off by default: without it a seed gives the same trace as
  // before, and checkers without atomic accesses (the Verilator engine
  // harness, sim/) still agree with DJIT+.
  bool atomic_mixing = false;
  // Now and then a thread destroys or frees a lock no one holds instead of
  // taking it: the lock starts over (docs/event-model.md, Destroy and
  // Free), so later critical sections are not ordered after earlier ones.
  // Off by default, so that a seed gives the same trace as before.
  bool lock_lifecycle = false;
  // Threads come and go all through the trace: any running thread forks
  // (at most 8 run at once) and joins another one, as programs that create
  // a thread per task do; with mistake_percent, a joined thread now and
  // then acts again (the event model allows it). Exercises FastTrack's
  // reuse of joined threads' slots. Off by default (the same traces as
  // before).
  bool churn = false;
};

class TraceGenerator {
 public:
  explicit TraceGenerator(const GeneratorOptions& options);
  // Next event, or false once `events` events were produced.
  bool next(Event& event);
  const SymbolTable& symbols() const { return symbols_; }

 private:
  struct ThreadState {
    bool started = false;
    bool finished = false;
    int held_lock = -1;    // mutex held, with accesses left in the section
    int held_rwlock = -1;  // 0 = shared, 1 = exclusive
    uint32_t section_left = 0;
    uint64_t heap_block = 0;  // address of a live heap block, 0 if none
    uint32_t heap_uses_left = 0;
  };
  enum class Pattern { Local, Locked, Shared, Racy, Extras };

  void emit(const Event& e);
  void step();
  void step_thread(uint32_t t);
  void critical_section_access(uint32_t t);
  void release_held(uint32_t t);
  void extras(uint32_t t);
  void mixed_access(uint32_t t);
  void barrier_round();
  bool churn_step();
  std::vector<uint32_t> running() const;
  Event access(uint32_t t, uint64_t base, uint64_t region, bool write);
  uint64_t site(uint32_t pattern, uint32_t t);
  uint64_t rand(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool chance(uint32_t percent) { return rand(100) < percent; }
  uint64_t name_location(uint64_t addr);

  GeneratorOptions o_;
  std::mt19937_64 rng_;
  SymbolTable symbols_;
  std::vector<ThreadState> threads_;
  std::vector<int> lock_owner_;
  int rwlock_writer_ = -1;
  uint32_t rwlock_readers_ = 0;
  // Atomic publication channels: data written, then a flag stored.
  struct Channel {
    int writer = -1;
    bool published = false;
    uint64_t generation = 0;  // each generation publishes a fresh data region
    uint32_t reads = 0;
  };
  std::vector<Channel> channels_;
  uint32_t barrier_phase_owner_ = 0;
  bool barrier_region_written_ = false;
  uint64_t barrier_rounds_ = 0;
  std::vector<uint64_t> free_heap_;  // freed block addresses, reused by the next alloc
  uint64_t next_heap_ = 0;
  std::vector<Event> pending_;  // queued events (fork prologue, barrier rounds)
  size_t pending_pos_ = 0;
  uint64_t produced_ = 0;
  uint32_t forked_ = 1;
  bool joining_ = false;
  uint32_t next_join_ = 1;
  bool barrier_region_read_ = false;
};

}  // namespace raceaccel
