// The pool's way choice with several read clocks per pool set (docs/hardware.md,
// "Several read clocks per line in the RTL"): a new clock takes the lowest
// free way, else the pool set's round-robin pointer's choice, whose clock
// leaves in a read-clock spill record (reason 5, the victim's granule). The
// verdicts do not depend on the choice (the host keeps a spilled clock
// exactly), so the DJIT+ tests cannot see a pointer that never moves; this
// test compares the spill records with a model of the policy.
//
// Raw commands on the pool-ways model (one pool set of 4 ways, 16 x 2 cache):
// two threads whose clocks are concurrent read byte 0 of fresh granules one
// after the other, so each granule's second read is a READ SHARE that takes
// a way. The protocol core is not used (it speaks the one-clock-per-line
// version of the records); the transport alone drives the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>
#include <vector>

#include "Vengine_fewslots.h"
#include "Vengine_poolways.h"
#include "engine_checker.hpp"
#include "engine_models.hpp"
#include "engine_transport.hpp"

namespace raceaccel::sim {
namespace {

constexpr unsigned kSlots = 4;
constexpr unsigned kPoolWays = 4;  // the model's ReadVcWays; ReadVcs = 4: one pool set

EngineConfig poolways_model() {
  return {.slots = kSlots, .clk_bits = 16, .sets = 16, .ways = 2, .objects = 4, .read_vcs = 4};
}

struct Log final : offload::RecordSink {
  std::vector<driver::EscalationRecord> escalations;
  unsigned races = 0;
  void on_escalation(const driver::EscalationRecord& r) override { escalations.push_back(r); }
  void on_race(const driver::RaceRecord&) override { ++races; }
  void answered(uint64_t) override {}
};

// The pool set's ways as the RTL fills them: the lowest free way, else the
// way the pointer names (a fresh granule holds none of them), after which
// the pointer names the next way. Returns the granule whose clock leaves, or
// 0 when a way was free.
struct PoolPolicy {
  std::array<uint64_t, kPoolWays> owner{};  // 0: free
  unsigned pointer = 0;
  uint64_t take(uint64_t granule) {
    for (unsigned w = 0; w < kPoolWays; ++w) {
      if (owner[w] == 0) {
        owner[w] = granule;
        return 0;
      }
    }
    const unsigned w = pointer;
    const uint64_t victim = owner[w];
    owner[w] = granule;
    pointer = (w + 1) % kPoolWays;
    return victim;
  }
};

TEST(EnginePoolWays, RoundRobinChoosesTheClockThatLeaves) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    EngineConfig cfg = poolways_model();
    cfg.seed = seed;
    cfg.stall_percent = static_cast<unsigned>(seed * 10);
    cfg.max_mem_latency = 1 + static_cast<unsigned>(seed);
    cfg.trace_tag = "poolways";
    EngineTransport<Vengine_poolways> engine(cfg);
    Log log;
    engine.connect(log);
    uint64_t number = 0;
    const auto send = [&](unsigned op, unsigned slot, uint64_t granule, std::vector<uint64_t> row) {
      driver::CommandWord c;
      c.op = op;
      c.slot = slot;
      c.mask = op == regs::kOpSetRow ? 0 : 1;
      c.granule = granule;
      engine.send(c, number++, row);
    };
    // Slot 0 at (1, 0, 0, 0), slot 1 at (0, 1, 0, 0): neither has seen the other.
    send(regs::kOpSetRow, 0, 0, {1, 0, 0, 0});
    send(regs::kOpSetRow, 1, 0, {0, 1, 0, 0});

    // Fresh granules in a shuffled order (each in its own cache set: no
    // eviction spill), more than the pool set holds three times over.
    std::vector<uint64_t> granules;
    for (uint64_t g = 1; g <= 14; ++g) granules.push_back(g);
    std::mt19937_64 rng(seed);
    std::shuffle(granules.begin(), granules.end(), rng);
    PoolPolicy policy;
    std::vector<uint64_t> expected;
    for (uint64_t g : granules) {
      send(regs::kOpRead, 0, g, {});
      send(regs::kOpRead, 1, g, {});  // concurrent with slot 0's read: READ SHARE, a new clock
      if (const uint64_t victim = policy.take(g)) expected.push_back(victim);
    }
    engine.flush();
    engine.check_assertions();

    std::vector<uint64_t> spilled;
    for (const driver::EscalationRecord& r : log.escalations) {
      EXPECT_EQ(r.reason, regs::kReasonReadVcSpill) << "seed " << seed << ", granule " << r.granule;
      EXPECT_TRUE(r.read_clock_valid) << "seed " << seed << ", granule " << r.granule;
      spilled.push_back(r.granule);
    }
    EXPECT_EQ(log.races, 0u) << "seed " << seed;
    EXPECT_EQ(spilled, expected) << "seed " << seed;
    EXPECT_EQ(expected.size(), granules.size() - kPoolWays);
    std::printf("  seed %llu: %zu read shares, %zu read-clock spills\n", static_cast<unsigned long long>(seed),
                granules.size(), spilled.size());
  }
}

// Shared lines evicted while their pool set holds other lines' clocks, on
// the 4-slot model (16 x 2 cache, four one-way pool sets), against DJIT+:
// three readers read 64 granules (16 a pool set: READ SHAREs take entries
// from each other, so lines go LASTWRITE with shared bytes, and misses
// evict them through S1EvSpill)
// while a writer writes some of them, unsynchronized (the races come from
// the pool's clocks and from the clocks the host was handed). An array write
// in S1EvSpill that is not the spill's own would put another entry's clock
// over the one the pool set holds.
TEST(EnginePoolEviction, SharedLinesEvictedAmongOtherClocksMatchDjit) {
  uint64_t spills = 0, writebacks = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<Event> events;
    for (ThreadId t = 1; t <= 3; ++t) events.push_back(Event::sync(Op::Fork, 0, t));
    // 64 granules (16 tags x 4 low set bits: the folded tags spread them
    // over the 16 sets, four a set) for 32 lines of cache.
    std::vector<uint64_t> granules;
    for (uint64_t tag = 0; tag < 16; ++tag) {
      for (uint64_t low = 0; low < 4; ++low) granules.push_back((tag * 16 + low) * 8);
    }
    for (int i = 0; i < 3000; ++i) {
      const uint64_t addr = granules[rng() % granules.size()];
      const unsigned r = rng() % 100;
      if (r < 80) {
        events.push_back(Event::read(static_cast<ThreadId>(1 + rng() % 3), addr + rng() % 4, 1 + rng() % 4));
      } else {
        events.push_back(Event::write(static_cast<ThreadId>(rng() % 4), addr + rng() % 8, 1));
      }
    }
    EngineConfig c = fewslots_model();
    c.seed = seed;
    c.stall_percent = static_cast<unsigned>(10 * seed);
    c.trace_tag = "pool_eviction";
    const GoldenRun run = run_against_djit<Vengine_fewslots>(c, events);
    EXPECT_EQ(run.golden, run.engine) << "seed " << seed;
    const EngineStats& st = run.stats;
    spills += st.read_vc_spills;
    writebacks += st.writebacks;
    std::printf("  seed %llu: %zu races, %llu read-clock spills, %llu misses, %llu write-backs\n",
                static_cast<unsigned long long>(seed), run.golden.size(),
                static_cast<unsigned long long>(st.read_vc_spills), static_cast<unsigned long long>(st.misses),
                static_cast<unsigned long long>(st.writebacks));
  }
  // The trace reaches what it is for: clocks spilled and lines written back.
  EXPECT_GT(spills, 100u);
  EXPECT_GT(writebacks, 100u);
}

}  // namespace
}  // namespace raceaccel::sim
