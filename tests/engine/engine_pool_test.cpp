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

#include "Vengine_poolways.h"
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

}  // namespace
}  // namespace raceaccel::sim
