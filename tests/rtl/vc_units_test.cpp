// Vector-clock units (rtl/vc_*.sv) against the software VectorClock of the
// detectors (host/core/vector_clock.hpp): combinational variants on edge and
// random vectors, pipelined units on random streams with random back-pressure,
// full-throughput latency, reset and the assertion layer.
//
// Built once per parameter set; VC_NUM_LANES, VC_CLK_W and VC_STAGES come from
// tests/rtl/CMakeLists.txt and match the model's -G parameters.
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vvc_units_tb.h"
#include "core/vector_clock.hpp"
#include "rtl_harness.hpp"

namespace {

constexpr unsigned kLanes = VC_NUM_LANES;
constexpr unsigned kClkW = VC_CLK_W;
constexpr unsigned kStages = VC_STAGES;
constexpr unsigned kSlotW = [] {
  unsigned w = 1;
  while ((1u << w) < kLanes) ++w;
  return w;
}();
constexpr uint64_t kMax = kClkW >= 64 ? ~uint64_t{0} : (uint64_t{1} << kClkW) - 1;
constexpr bool kWide = kLanes * kClkW > 256;  // fewer random vectors for big models
static_assert(kLanes <= 64, "greater_lanes masks are read as uint64_t");

using Lanes = std::vector<uint64_t>;
using Model = Vvc_units_tb;
using Harness = rac_rtl::Harness<Model>;

// "n8w8s1.Suite.Test": names the FST file when RACEACCEL_FST has "{}".
std::string test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return "n" + std::to_string(kLanes) + "w" + std::to_string(kClkW) + "s" + std::to_string(kStages) + "." +
         info->test_suite_name() + "." + info->name();
}

std::string str(const Lanes& v) {
  std::ostringstream os;
  os << "<";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  os << ">";
  return os.str();
}

// ---- reference: the detectors' VectorClock ----------------------------------
raceaccel::VectorClock to_vc(const Lanes& l) {
  raceaccel::VectorClock v;
  for (size_t i = 0; i < l.size(); ++i) v.set(i, l[i]);
  return v;
}

Lanes ref_join(const Lanes& a, const Lanes& b) {
  raceaccel::VectorClock v = to_vc(a);
  v.join(to_vc(b));
  Lanes out(kLanes);
  for (unsigned i = 0; i < kLanes; ++i) out[i] = v.get(i);
  return out;
}

struct LeqResult {
  bool leq = false;
  bool any_greater = false;
  unsigned first_greater = 0;
  uint64_t greater_mask = 0;
  bool operator==(const LeqResult&) const = default;
};
std::ostream& operator<<(std::ostream& os, const LeqResult& r) {
  return os << "{leq=" << r.leq << " any=" << r.any_greater << " first=" << r.first_greater << " mask=0x" << std::hex
            << r.greater_mask << std::dec << "}";
}

LeqResult ref_leq(const Lanes& a, const Lanes& b) {
  LeqResult r;
  r.leq = to_vc(a).leq(to_vc(b));
  r.any_greater = !r.leq;
  bool found = false;
  for (unsigned i = 0; i < kLanes; ++i) {
    if (a[i] > b[i]) {
      r.greater_mask |= uint64_t{1} << i;
      if (!found) r.first_greater = i;
      found = true;
    }
  }
  return r;
}

// c@slot ≼ vc; a slot beyond the lanes reads 0, as VectorClock::get does.
bool ref_epoch_leq(unsigned slot, uint64_t clock, const Lanes& vc) {
  return to_vc(vc).covers(raceaccel::Epoch{slot, clock});
}

// ---- stimulus -------------------------------------------------------------------
class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}

  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  // Biased towards the interesting values 0, 1, max-1, max.
  uint64_t clock() {
    switch (rng_() % 10) {
      case 0: return 0;
      case 1: return kMax;
      case 2: return kMax - 1;
      case 3: return 1;
      default: return rng_() & kMax;
    }
  }
  Lanes vc() {
    Lanes v(kLanes);
    for (auto& x : v) x = clock();
    return v;
  }
  // Pairs where a ⊑ b about half of the time and otherwise fails in one, a
  // few or many lanes.
  std::pair<Lanes, Lanes> pair() {
    Lanes b = vc(), a(kLanes);
    const unsigned mode = static_cast<unsigned>(rng_() % 5);
    for (unsigned i = 0; i < kLanes; ++i) a[i] = mode == 0 ? b[i] : below(b[i] + 1);  // a ⊑ b
    if (mode >= 3) {                                                                  // 1 or a few lanes greater
      const unsigned k = mode == 3 ? 1 : 1 + static_cast<unsigned>(below(3));
      for (unsigned j = 0; j < k; ++j) {
        const unsigned i = static_cast<unsigned>(below(kLanes));
        if (b[i] == kMax) b[i] = below(kMax);
        a[i] = b[i] + 1 + below(kMax - b[i]);
      }
    } else if (mode == 2) {
      a = vc();  // independent
    }
    return {a, b};
  }
  unsigned slot() { return static_cast<unsigned>(rng_() % (uint64_t{1} << kSlotW)); }

 private:
  std::mt19937_64 rng_;
};

// ---- combinational variants -----------------------------------------------------
void check_comb(Harness& h, const Lanes& a, const Lanes& b) {
  Model& m = h.dut();
  raceaccel::sim::put_lanes(m.comb_a_i, a, kClkW);
  raceaccel::sim::put_lanes(m.comb_b_i, b, kClkW);
  h.eval();
  ASSERT_EQ(raceaccel::sim::get_lanes(m.comb_join_o, kLanes, kClkW), ref_join(a, b))
      << "a=" << str(a) << " b=" << str(b);
  const LeqResult got{m.comb_leq_o != 0, m.comb_any_greater_o != 0, static_cast<unsigned>(m.comb_first_greater_lane_o),
                      static_cast<uint64_t>(m.comb_greater_lanes_o)};
  ASSERT_EQ(got, ref_leq(a, b)) << "a=" << str(a) << " b=" << str(b);
}

void check_epoch_comb(Harness& h, unsigned slot, uint64_t clock, const Lanes& vc) {
  Model& m = h.dut();
  m.comb_slot_i = slot;
  m.comb_clk_i = clock;
  raceaccel::sim::put_lanes(m.comb_b_i, vc, kClkW);
  h.eval();
  ASSERT_EQ(m.comb_epoch_leq_o != 0, ref_epoch_leq(slot, clock, vc)) << clock << "@" << slot << " vc=" << str(vc);
}

TEST(VcComb, EdgeCases) {
  Harness h(test_name());
  h.reset();
  const Lanes zero(kLanes, 0), max(kLanes, kMax), one(kLanes, 1);
  ASSERT_NO_FATAL_FAILURE(check_comb(h, zero, zero));
  ASSERT_NO_FATAL_FAILURE(check_comb(h, max, max));
  ASSERT_NO_FATAL_FAILURE(check_comb(h, zero, max));
  ASSERT_NO_FATAL_FAILURE(check_comb(h, max, zero));
  ASSERT_NO_FATAL_FAILURE(check_comb(h, one, zero));
  Gen g(1);
  for (int rep = 0; rep < 4; ++rep) {
    const Lanes b = rep == 0 ? zero : rep == 1 ? Lanes(kLanes, kMax - 1) : g.vc();
    ASSERT_NO_FATAL_FAILURE(check_comb(h, b, b));  // equal clocks
    for (unsigned i = 0; i < kLanes; ++i) {        // exactly one lane greater, each lane
      if (b[i] == kMax) continue;
      Lanes a = b;
      a[i] = b[i] + 1;
      ASSERT_NO_FATAL_FAILURE(check_comb(h, a, b));
      a[i] = kMax;
      ASSERT_NO_FATAL_FAILURE(check_comb(h, a, b));
      ASSERT_NO_FATAL_FAILURE(check_comb(h, b, a));
    }
    for (unsigned i = 0; i < kLanes; ++i) {  // all lanes greater from lane i on
      Lanes a = b;
      bool any = false;
      for (unsigned j = i; j < kLanes; ++j) {
        if (b[j] < kMax) {
          a[j] = b[j] + 1;
          any = true;
        }
      }
      if (any) {
        ASSERT_NO_FATAL_FAILURE(check_comb(h, a, b));
      }
    }
  }
  EXPECT_EQ(h.errors(), 0);
}

TEST(VcComb, Random) {
  Harness h(test_name());
  h.reset();
  Gen g(2);
  const int n = kWide ? 20000 : 100000;
  for (int k = 0; k < n; ++k) {
    const auto [a, b] = g.pair();
    ASSERT_NO_FATAL_FAILURE(check_comb(h, a, b));
  }
  EXPECT_EQ(h.errors(), 0);
}

TEST(VcComb, EpochLeq) {
  Harness h(test_name());
  h.reset();
  Gen g(3);
  // Every slot (including those beyond the lanes when kLanes is not a power of
  // two) at the edge values around the lane's clock.
  for (int rep = 0; rep < 4; ++rep) {
    const Lanes vc = rep == 0 ? Lanes(kLanes, 0) : rep == 1 ? Lanes(kLanes, kMax) : g.vc();
    for (unsigned slot = 0; slot < (1u << kSlotW); ++slot) {
      const uint64_t lane = slot < kLanes ? vc[slot] : 0;
      for (uint64_t c : {uint64_t{0}, uint64_t{1}, kMax, kMax - 1, lane, lane + 1, lane - 1}) {
        ASSERT_NO_FATAL_FAILURE(check_epoch_comb(h, slot, c & kMax, vc));
      }
    }
  }
  for (int k = 0; k < (kWide ? 20000 : 100000); ++k) {
    const Lanes vc = g.vc();
    const unsigned slot = g.slot();
    const uint64_t lane = slot < kLanes ? vc[slot] : 0;
    const uint64_t c = g.coin(0.5) ? g.below(lane + 1) : g.clock();
    ASSERT_NO_FATAL_FAILURE(check_epoch_comb(h, slot, c, vc));
  }
  EXPECT_EQ(h.errors(), 0);
}

// ---- pipelined units: streams with back-pressure ---------------------------------
// A unit adapter gives the stream driver uniform access to one unit's ports.
struct JoinUnit {
  struct Txn {
    Lanes a, b;
  };
  using Result = Lanes;
  static Txn gen(Gen& g) {
    auto [a, b] = g.pair();
    if (g.coin(0.5)) std::swap(a, b);
    return {a, b};
  }
  static Result ref(const Txn& t) { return ref_join(t.a, t.b); }
  static void drive(Model& m, const Txn& t, uint16_t tag, bool valid) {
    m.join_valid_i = valid;
    raceaccel::sim::put_lanes(m.join_a_i, t.a, kClkW);
    raceaccel::sim::put_lanes(m.join_b_i, t.b, kClkW);
    m.join_user_i = tag;
  }
  static void idle(Model& m) { m.join_valid_i = 0; }
  static bool in_ready(const Model& m) { return m.join_ready_o; }
  static void set_out_ready(Model& m, bool r) { m.join_ready_i = r; }
  static bool out_valid(const Model& m) { return m.join_valid_o; }
  static Result read(const Model& m) { return raceaccel::sim::get_lanes(m.join_o, kLanes, kClkW); }
  static uint16_t tag(const Model& m) { return m.join_user_o; }
};

struct LeqUnit {
  struct Txn {
    Lanes a, b;
  };
  using Result = LeqResult;
  static Txn gen(Gen& g) {
    auto [a, b] = g.pair();
    return {a, b};
  }
  static Result ref(const Txn& t) { return ref_leq(t.a, t.b); }
  static void drive(Model& m, const Txn& t, uint16_t tag, bool valid) {
    m.leq_valid_i = valid;
    raceaccel::sim::put_lanes(m.leq_a_i, t.a, kClkW);
    raceaccel::sim::put_lanes(m.leq_b_i, t.b, kClkW);
    m.leq_user_i = tag;
  }
  static void idle(Model& m) { m.leq_valid_i = 0; }
  static bool in_ready(const Model& m) { return m.leq_ready_o; }
  static void set_out_ready(Model& m, bool r) { m.leq_ready_i = r; }
  static bool out_valid(const Model& m) { return m.leq_valid_o; }
  static Result read(const Model& m) {
    return {m.leq_o != 0, m.leq_any_greater_o != 0, static_cast<unsigned>(m.leq_first_greater_lane_o),
            static_cast<uint64_t>(m.leq_greater_lanes_o)};
  }
  static uint16_t tag(const Model& m) { return m.leq_user_o; }
};

struct EpochUnit {
  struct Txn {
    unsigned slot;
    uint64_t clock;
    Lanes vc;
  };
  using Result = bool;
  static Txn gen(Gen& g) {
    Txn t{g.slot(), 0, g.vc()};
    const uint64_t lane = t.slot < kLanes ? t.vc[t.slot] : 0;
    t.clock = g.coin(0.5) ? g.below(lane + 1) : g.clock();
    return t;
  }
  static Result ref(const Txn& t) { return ref_epoch_leq(t.slot, t.clock, t.vc); }
  static void drive(Model& m, const Txn& t, uint16_t tag, bool valid) {
    m.ep_valid_i = valid;
    m.ep_slot_i = t.slot;
    m.ep_clk_i = t.clock;
    raceaccel::sim::put_lanes(m.ep_vc_i, t.vc, kClkW);
    m.ep_user_i = tag;
  }
  static void idle(Model& m) { m.ep_valid_i = 0; }
  static bool in_ready(const Model& m) { return m.ep_ready_o; }
  static void set_out_ready(Model& m, bool r) { m.ep_ready_i = r; }
  static bool out_valid(const Model& m) { return m.ep_valid_o; }
  static Result read(const Model& m) { return m.ep_leq_o != 0; }
  static uint16_t tag(const Model& m) { return m.ep_user_o; }
};

// Sends `beats` random transactions with valid asserted with probability
// p_valid (held until accepted, payload stable: the input protocol) and the
// output drained with probability p_ready per cycle. Checks every result and
// its tag in order against the reference, that a stalled output holds, that
// the unit never holds more than kStages beats, and that it accepts whenever
// it is not full. Returns the number of cycles taken.
template <class Unit>
uint64_t run_stream(Harness& h, Gen& g, unsigned beats, double p_valid, double p_ready) {
  Model& m = h.dut();
  struct Expected {
    uint16_t tag;
    typename Unit::Result result;
  };
  std::deque<Expected> in_flight;
  std::optional<typename Unit::Txn> cur;
  uint16_t cur_tag = 0;
  unsigned sent = 0, received = 0;
  bool was_stalled = false;
  typename Unit::Result stalled_result{};
  uint16_t stalled_tag = 0;
  const uint64_t start = h.cycles();
  const uint64_t limit = start + 100 + static_cast<uint64_t>(beats / (p_valid * p_ready) * 4);

  while (received < beats) {
    if (h.cycles() > limit) {
      ADD_FAILURE() << "timeout: sent " << sent << " received " << received;
      return 0;
    }
    if (!cur && sent < beats && g.coin(p_valid)) {
      cur = Unit::gen(g);
      cur_tag = static_cast<uint16_t>(sent);
    }
    if (cur) {
      Unit::drive(m, *cur, cur_tag, true);
    } else {
      Unit::idle(m);
    }
    const bool ready = g.coin(p_ready);
    Unit::set_out_ready(m, ready);
    h.eval();

    const bool out_valid = Unit::out_valid(m);
    if (was_stalled) {
      EXPECT_TRUE(out_valid) << "valid_o dropped while stalled, cycle " << h.cycles();
      EXPECT_EQ(Unit::read(m), stalled_result) << "output changed while stalled";
      EXPECT_EQ(Unit::tag(m), stalled_tag) << "user changed while stalled";
    }
    if (in_flight.size() < kStages) {
      EXPECT_TRUE(Unit::in_ready(m)) << "not ready with " << in_flight.size() << " beats inside";
    }
    if (in_flight.empty()) {
      EXPECT_FALSE(out_valid) << "valid_o with nothing inside";
    }
    if (out_valid && ready) {
      if (in_flight.empty()) {
        ADD_FAILURE() << "unexpected output";
        return 0;
      }
      EXPECT_EQ(Unit::tag(m), in_flight.front().tag);
      EXPECT_EQ(Unit::read(m), in_flight.front().result) << "beat tag " << in_flight.front().tag;
      in_flight.pop_front();
      ++received;
    }
    was_stalled = out_valid && !ready;
    if (was_stalled) {
      stalled_result = Unit::read(m);
      stalled_tag = Unit::tag(m);
    }
    if (cur && Unit::in_ready(m)) {
      in_flight.push_back({cur_tag, Unit::ref(*cur)});
      cur.reset();
      ++sent;
    }
    if (::testing::Test::HasFailure()) return 0;
    h.tick();
    EXPECT_LE(in_flight.size(), kStages);
  }
  Unit::idle(m);
  Unit::set_out_ready(m, true);
  h.eval();
  return h.cycles() - start;
}

template <class Unit>
void stream_test(uint64_t seed) {
  Harness h(test_name());
  h.reset();
  Gen g(seed);
  const unsigned beats = kWide ? 5000 : 20000;
  for (const auto& [pv, pr] :
       std::vector<std::pair<double, double>>{{1.0, 1.0}, {1.0, 0.5}, {0.5, 1.0}, {0.3, 0.3}, {0.9, 0.2}, {0.2, 0.9}}) {
    SCOPED_TRACE(::testing::Message() << "p_valid=" << pv << " p_ready=" << pr);
    run_stream<Unit>(h, g, beats, pv, pr);
    ASSERT_FALSE(::testing::Test::HasFailure());
  }
  EXPECT_EQ(h.errors(), 0) << "RTL assertions failed";
}

TEST(VcJoin, StreamWithBackpressure) { stream_test<JoinUnit>(11); }
TEST(VcLeq, StreamWithBackpressure) { stream_test<LeqUnit>(12); }
TEST(VcEpochLeq, StreamWithBackpressure) { stream_test<EpochUnit>(13); }

// With valid and ready always high, each unit returns its first result exactly
// kStages cycles after accepting it and then one result per cycle.
template <class Unit>
void latency_test(uint64_t seed) {
  Harness h(test_name());
  h.reset();
  Gen g(seed);
  Model& m = h.dut();
  Unit::set_out_ready(m, true);
  const unsigned beats = 50;
  std::deque<typename Unit::Result> expected;
  unsigned received = 0;
  for (unsigned cycle = 0; cycle < beats + kStages; ++cycle) {
    if (cycle < beats) {
      const auto t = Unit::gen(g);
      Unit::drive(m, t, static_cast<uint16_t>(cycle), true);
      expected.push_back(Unit::ref(t));
    } else {
      Unit::idle(m);
    }
    h.eval();
    ASSERT_TRUE(cycle >= beats || Unit::in_ready(m)) << "stalled at cycle " << cycle;
    ASSERT_EQ(Unit::out_valid(m), cycle >= kStages) << "cycle " << cycle;
    if (Unit::out_valid(m)) {
      ASSERT_EQ(Unit::tag(m), received);
      ASSERT_EQ(Unit::read(m), expected.front());
      expected.pop_front();
      ++received;
    }
    h.tick();
  }
  EXPECT_EQ(received, beats);
  h.eval();
  EXPECT_FALSE(Unit::out_valid(m));
  EXPECT_EQ(h.errors(), 0);
}

TEST(VcJoin, LatencyAndThroughput) { latency_test<JoinUnit>(21); }
TEST(VcLeq, LatencyAndThroughput) { latency_test<LeqUnit>(22); }
TEST(VcEpochLeq, LatencyAndThroughput) { latency_test<EpochUnit>(23); }

// A synchronous reset empties every pipeline, whatever it holds.
TEST(VcUnits, ResetEmptiesPipelines) {
  Harness h(test_name());
  h.reset();
  Gen g(31);
  Model& m = h.dut();
  JoinUnit::drive(m, JoinUnit::gen(g), 1, true);
  LeqUnit::drive(m, LeqUnit::gen(g), 2, true);
  EpochUnit::drive(m, EpochUnit::gen(g), 3, true);
  m.join_ready_i = m.leq_ready_i = m.ep_ready_i = 0;
  for (unsigned i = 0; i < kStages + 2; ++i) h.tick();
  h.eval();
  ASSERT_TRUE(m.join_valid_o && m.leq_valid_o && m.ep_valid_o);
  m.join_valid_i = m.leq_valid_i = m.ep_valid_i = 0;
  h.reset(1);
  EXPECT_FALSE(m.join_valid_o || m.leq_valid_o || m.ep_valid_o);
  EXPECT_TRUE(m.join_ready_o && m.leq_ready_o && m.ep_ready_o);
  EXPECT_EQ(h.errors(), 0);
}

// The assertion layer is live in the Verilated model: withdrawing valid_i
// while the unit is stalled violates the input protocol and is reported.
TEST(VcUnits, ProtocolViolationIsReported) {
  Harness h(test_name());
  h.reset();
  Gen g(41);
  Model& m = h.dut();
  m.leq_ready_i = 0;
  for (unsigned i = 0; i < kStages; ++i) {  // fill the pipeline
    LeqUnit::drive(m, LeqUnit::gen(g), static_cast<uint16_t>(i), true);
    h.eval();
    ASSERT_TRUE(m.leq_ready_o);
    h.tick();
  }
  LeqUnit::drive(m, LeqUnit::gen(g), 99, true);
  h.eval();
  ASSERT_FALSE(m.leq_ready_o);
  h.tick();  // offered while stalled ...
  EXPECT_EQ(h.errors(), 0);
  LeqUnit::idle(m);  // ... and withdrawn before it was accepted
  h.tick();
  EXPECT_GE(h.errors(), 1) << "InValidHeld did not fire";
}

}  // namespace
