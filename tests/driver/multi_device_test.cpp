// The offload engine on several devices (MultiDeviceChecker, docs/driver.md
// "Several devices") against the offload engine on one device and against
// the golden DJIT+ detector, on random generated traces: N devices must
// report exactly one device's races (every field, in the same order) and
// DJIT+'s racing bytes, events and kinds (for an earlier write also its
// thread, clock and site). Most traces get accesses, atomics, allocs and
// frees across 4 KiB blocks (checked in parts on several devices), and some
// lose their forks (threads first seen at a plain access). A mutant — one device's engine that misses one
// synchronization event — shows that the comparison catches a shard that
// does not see all synchronization.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "../common/race_keys.hpp"
#include "../common/random_trace_options.hpp"
#include "backends.hpp"
#include "detect/djit.hpp"
#include "detect/sharded_checker.hpp"
#include "gen/generator.hpp"
#include "offload/multi_device_checker.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

// The software model's shape (the Verilated kernel's is fixed), the
// engine's batch size and bucket table: 8 Ki words, so that every engine
// launches several batches per trace, and 2^12 buckets (512 KiB); the
// buffers are allocated whole per engine, and with the defaults (64 Ki
// words, 8 MiB of buckets) the test spent most of its time zeroing memory.
struct Shape {
  unsigned slots = 64, clock_bits = 32;
  size_t batch_words = 8 * 1024;
  unsigned bucket_bits = 12;
};

template <typename Backend>
std::unique_ptr<driver::Device> open_one(const Shape& shape, unsigned index) {
  driver::DeviceOptions o = Backend::options();
  o.software_slots = shape.slots;
  o.software_clock_bits = shape.clock_bits;
  o.seed += index;  // Verilator: each simulated card its own bus timing
  return driver::open_device(o);
}

offload::OffloadOptions engine_options(const Shape& shape) {
  offload::OffloadOptions o;
  o.batch_words = shape.batch_words;
  o.bucket_bits = shape.bucket_bits;
  return o;
}

// A random range event by thread t: at any alignment near the generator's
// regions (host/gen/generator.cpp) and up to a few pages long, so that
// accesses, atomics, allocs and frees straddle 4 KiB blocks, and so
// devices.
Event straddling_event(ThreadId t, uint32_t threads, std::mt19937_64& rng) {
  auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  const uint64_t regions[] = {0x1000'0000 + pick(0, threads) * 0x1000, 0x2000'0000, 0x3000'0000, 0x8000'0000};
  const uint64_t addr = regions[pick(0, 3)] + pick(0, 0x2000);
  const uint64_t size = pick(0, 3) == 0 ? pick(1, 10'000) : pick(1, 40);
  switch (pick(0, 6)) {
    case 0:
    case 1: return Event::read(t, addr, size, 700 + t);
    case 2:
    case 3: return Event::write(t, addr, size, 701 + t);
    case 4:
      return Event::atomic(pick(0, 1) ? Op::AtomicLoad : Op::AtomicRmw, t, addr, std::min<uint64_t>(size, 16),
                           static_cast<MemoryOrder>(pick(0, kMemoryOrderCount - 1)), 702);
    case 5: return Event::range(Op::Alloc, t, addr, size, 703);
    default: return Event::range(Op::Free, t, addr, size, 704);
  }
}

// A generated trace; in two of three, range events across block edges are
// mixed in, and in one of three the forks are left out, so that threads
// first appear at a plain access (every device must give them their slot
// there, whether or not it owns the bytes).
std::vector<Event> make_trace(const GeneratorOptions& o) {
  const bool straddling = o.seed % 3 != 0;
  const bool without_forks = o.seed % 3 == 1;
  TraceGenerator generator(o);
  std::mt19937_64 rng(o.seed * 31 + 5);
  std::vector<Event> trace;
  Event e;
  while (generator.next(e)) {
    if (without_forks && e.op == Op::Fork) continue;
    trace.push_back(e);
    if (straddling && rng() % 16 == 0) trace.push_back(straddling_event(e.tid, o.threads, rng));
  }
  return trace;
}

// One trace through DJIT+, the offload engine on one device, and `many`.
struct Comparison {
  std::vector<Race> golden, one, many;
  offload::OffloadStats one_stats;
};

Comparison run_three(const GeneratorOptions& options, driver::Device& single, const offload::OffloadOptions& engine,
                     Detector& many) {
  offload::OffloadChecker one(single, engine);
  DjitDetector golden;
  const std::vector<Event> trace = make_trace(options);
  for (uint64_t i = 0; i < trace.size(); ++i) {
    golden.process(trace[i], i);
    one.process(trace[i], i);
    many.process(trace[i], i);
  }
  one.finish();
  many.finish();
  return {golden.races(), one.races(), many.races(), one.stats()};
}

std::string describe(const Race& r) {
  return "event " + std::to_string(r.event) + " byte " + std::to_string(r.addr) + " kind " +
         std::string(race_kind_name(r.kind)) + " T" + std::to_string(r.tid) + " earlier T" +
         std::to_string(r.prev_tid) + "@" + std::to_string(r.prev_clock) + " site " + std::to_string(r.prev_site);
}

// Empty when `many` reports exactly what one device reports (the same
// races, every field, in (event, byte) order as the reports are printed)
// and DJIT+'s racing bytes; else the first difference.
std::string differences(const Comparison& c) {
  const auto by_event_then_byte = [](const Race& a, const Race& b) {
    return std::tie(a.event, a.addr) < std::tie(b.event, b.addr);
  };
  if (!std::is_sorted(c.many.begin(), c.many.end(), by_event_then_byte)) return "not in (event, byte) order";
  std::vector<Race> one = c.one;
  std::sort(one.begin(), one.end(), by_event_then_byte);
  for (size_t i = 0; i < std::max(one.size(), c.many.size()); ++i) {
    if (i >= one.size()) return "extra race " + describe(c.many[i]);
    if (i >= c.many.size()) return "missing race " + describe(one[i]);
    if (!(one[i] == c.many[i])) return "one device: " + describe(one[i]) + "; several: " + describe(c.many[i]);
  }
  if (race_keys(c.golden) != race_keys(c.many)) return "racing bytes differ from DJIT+'s";
  std::vector<Race> golden = c.golden;
  std::sort(golden.begin(), golden.end(), by_event_then_byte);
  for (size_t i = 0; i < golden.size(); ++i) {
    // An earlier read may be any concurrent reader (race_keys.hpp).
    if (golden[i].kind != RaceKind::ReadWrite && !(golden[i] == c.many[i]))
      return "DJIT+: " + describe(golden[i]) + "; several: " + describe(c.many[i]);
  }
  return "";
}

struct SuiteTotals {
  uint64_t racy = 0, traces = 0;
  std::vector<uint64_t> accesses_per_device;
};

// `traces` random traces on `n` devices of the backend against one device.
template <typename Backend>
SuiteTotals run_suite(unsigned n, const Shape& shape, uint64_t seed_base, int traces, uint32_t max_threads) {
  SuiteTotals totals;
  totals.accesses_per_device.assign(n, 0);
  auto single = open_one<Backend>(shape, 0);
  std::vector<std::unique_ptr<driver::Device>> owned;
  std::vector<driver::Device*> devices;
  for (unsigned i = 0; i < n; ++i) {
    owned.push_back(open_one<Backend>(shape, i + 1));
    devices.push_back(owned.back().get());
  }
  for (int i = 0; i < traces; ++i) {
    const GeneratorOptions trace = offload_random_trace(seed_base + static_cast<uint64_t>(i), max_threads);
    offload::MultiDeviceChecker many(devices, engine_options(shape));
    const Comparison c = run_three(trace, *single, engine_options(shape), many);
    const std::string what = std::to_string(n) + " " + Backend::kName + " devices, seed " + std::to_string(trace.seed) +
                             ", " + std::to_string(trace.threads) + " threads";
    EXPECT_EQ(differences(c), "") << what;
    if (::testing::Test::HasFailure()) return totals;
    // Every access command goes to exactly one device: the devices' access
    // commands add up to one device's (granules are cut alike).
    const std::vector<offload::OffloadStats> each = many.device_stats();
    const offload::OffloadStats sum = offload::sum_stats(each, 0);
    EXPECT_EQ(sum.access_commands, c.one_stats.access_commands) << what;
    for (unsigned d = 0; d < n; ++d) totals.accesses_per_device[d] += each[d].access_commands;
    totals.racy += c.golden.empty() ? 0 : 1;
    ++totals.traces;
  }
  return totals;
}

void expect_meaningful(const SuiteTotals& t) {
  EXPECT_GT(t.racy, t.traces / 2) << "most traces must have races for the comparison to mean something";
  for (size_t d = 0; d < t.accesses_per_device.size(); ++d)
    EXPECT_GT(t.accesses_per_device[d], 0u) << "device " << d << " checked nothing";
}

TEST(MultiDevice, SoftwareDevicesMatchOneDeviceAndDjit) {
  for (unsigned n = 1; n <= 4; ++n) {
    const SuiteTotals t = run_suite<SoftwareBackend>(n, Shape{}, 0x3D1C'0000 + 100 * n, 40, 16);
    expect_meaningful(t);
    if (HasFailure()) return;
  }
}

// More threads than slots (forced escalations, slot recycling), narrow
// clocks (the overflow fallback) and tiny batches (a launch every few
// events on each device): the host paths each device runs on its own.
TEST(MultiDevice, SoftwareDevicesInSmallShapesMatch) {
  Shape few_slots;
  few_slots.slots = 4;
  Shape narrow;
  narrow.clock_bits = 4;
  Shape tiny;
  tiny.batch_words = 1;
  for (const Shape& shape : {few_slots, narrow, tiny}) {
    for (unsigned n : {2u, 3u}) {
      expect_meaningful(run_suite<SoftwareBackend>(n, shape, 0x5A9E'0000 + n, 10, 12));
      if (HasFailure()) return;
    }
  }
}

#if RACEACCEL_HAVE_VERILATOR_DEVICE
TEST(MultiDevice, VerilatorDevicesMatchOneDeviceAndDjit) {
  expect_meaningful(run_suite<VerilatorBackend>(2, Shape{}, 0x7E21'0000, 8, 12));
  if (HasFailure()) return;
  expect_meaningful(run_suite<VerilatorBackend>(3, Shape{}, 0x7E23'0000, 3, 12));
}
#endif

// The mutant: an engine that misses the first lock release it is given
// (as a shard that did not replay all synchronization would).
class DropsFirstRelease final : public Detector {
 public:
  DropsFirstRelease(driver::Device& device, const offload::OffloadOptions& o) : inner_(device, o) {}
  std::string_view name() const override { return "offload"; }
  bool shardable() const override { return true; }
  void process(const Event& e, uint64_t index) override {
    if (!drop(e)) inner_.process(e, index);
  }
  void process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts) override {
    if (!drop(e)) inner_.process_parts(e, index, parts);
  }
  void finish() override { inner_.finish(); }
  const std::vector<Race>& races() const override { return inner_.races(); }

 private:
  bool drop(const Event& e) {
    if (dropped_ || e.op != Op::Release) return false;
    dropped_ = true;
    return true;
  }
  offload::OffloadChecker inner_;
  bool dropped_ = false;
};

TEST(MultiDevice, TheComparisonCatchesADeviceThatMissesASyncEvent) {
  auto single = open_one<SoftwareBackend>(Shape{}, 0);
  auto first = open_one<SoftwareBackend>(Shape{}, 1), second = open_one<SoftwareBackend>(Shape{}, 2);
  int caught = 0, runs = 0;
  std::string example;
  for (uint64_t seed = 0x3D1C'0000 + 200; seed < 0x3D1C'0000 + 200 + 10; ++seed) {
    GeneratorOptions trace = offload_random_trace(seed, 8);
    trace.locked_weight = 40;  // lock-protected accesses, whose order the dropped release carried
    trace.racy_weight = 2;
    std::vector<std::unique_ptr<Detector>> shards;
    shards.push_back(std::make_unique<offload::OffloadChecker>(*first, engine_options(Shape{})));
    shards.push_back(std::make_unique<DropsFirstRelease>(*second, engine_options(Shape{})));
    ShardedChecker many(std::move(shards), ShardedChecker::Options{});
    const std::string d = differences(run_three(trace, *single, engine_options(Shape{}), many));
    ++runs;
    if (!d.empty()) {
      ++caught;
      example = d;
    }
  }
  EXPECT_GT(caught, runs / 2) << "the mutant went unnoticed in " << runs - caught << " of " << runs << " traces";
  RecordProperty("caught", caught);
  RecordProperty("example", example);
}

// A device that fails after a few launches (its protocol broken): the
// failure comes out of process() or finish() as that DeviceError, with the
// event it failed at, and no race after that event is kept.
class FailsAfterLaunches final : public driver::Device {
 public:
  FailsAfterLaunches(std::unique_ptr<driver::Device> inner, int launches) : inner_(std::move(inner)), left_(launches) {}
  std::string_view backend() const override { return inner_->backend(); }
  std::unique_ptr<driver::Buffer> allocate(size_t bytes) override { return inner_->allocate(bytes); }
  void write_register(uint32_t offset, uint32_t value) override { inner_->write_register(offset, value); }
  uint32_t read_register(uint32_t offset) override { return inner_->read_register(offset); }
  void start() override {
    if (left_-- == 0) throw driver::DeviceError(driver::DeviceErrorKind::Protocol, "test: the card broke");
    inner_->start();
  }
  bool wait(std::chrono::milliseconds timeout) override { return inner_->wait(timeout); }

 private:
  std::unique_ptr<driver::Device> inner_;
  int left_;
};

TEST(MultiDevice, ADeviceFailureStopsTheCheckAtItsEvent) {
  auto good = open_one<SoftwareBackend>(Shape{}, 0);
  FailsAfterLaunches bad(open_one<SoftwareBackend>(Shape{}, 1), 3);
  std::vector<driver::Device*> devices{good.get(), &bad};
  Shape tiny;
  tiny.batch_words = 64;
  offload::MultiDeviceChecker many(devices, engine_options(tiny));
  GeneratorOptions trace = offload_random_trace(0xFA11, 8);
  trace.events = 20'000;
  TraceGenerator generator(trace);
  Event e;
  uint64_t given = 0;
  try {
    for (; generator.next(e); ++given) many.process(e, given);
    many.finish();
    FAIL() << "the broken device was not noticed";
  } catch (const driver::DeviceError& err) {
    EXPECT_EQ(err.kind(), driver::DeviceErrorKind::Protocol);
    EXPECT_STREQ(err.what(), "test: the card broke");
  }
  ASSERT_TRUE(many.failed_event().has_value());
  EXPECT_LE(*many.failed_event(), given);
  for (const Race& r : many.races()) EXPECT_LE(r.event, *many.failed_event());
  EXPECT_NO_THROW(many.finish());  // finished: nothing more to do
}

}  // namespace
}  // namespace raceaccel::test
