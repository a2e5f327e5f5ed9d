// The offload engine over every backend must report exactly what the golden
// DJIT+ detector reports: the same (byte, first racing event, kind) and,
// where the earlier access is a write, the same earlier write (thread, clock
// and site). For an earlier read the detectors may name different, equally
// valid, concurrent readers (as in tests/unit/differential_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <tuple>

#include "../common/race_keys.hpp"
#include "../common/random_trace_options.hpp"
#include "backends.hpp"
#include "detect/djit.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"
#include "read_mostly_trace.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel::test {
namespace {

using test::RaceKey;
std::vector<RaceKey> keys(const std::vector<Race>& races) { return test::race_keys(races); }

void expect_same_races(const std::vector<Race>& golden, const std::vector<Race>& offload, const std::string& what) {
  ASSERT_EQ(keys(golden), keys(offload)) << what;
  std::vector<Race> g = golden, o = offload;
  auto by_key = [](const Race& a, const Race& b) { return std::tie(a.addr, a.event) < std::tie(b.addr, b.event); };
  std::sort(g.begin(), g.end(), by_key);
  std::sort(o.begin(), o.end(), by_key);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i].kind == RaceKind::ReadWrite) {
      EXPECT_EQ(std::tie(g[i].tid, g[i].site), std::tie(o[i].tid, o[i].site)) << what << " race " << i;
      continue;
    }
    EXPECT_EQ(g[i], o[i]) << what << " race " << i;
  }
}

// A device shape and batch size to run under.
struct RunShape {
  unsigned slots = 64, clock_bits = 32, objects = 64, read_vcs = 16;  // software backend only
  size_t batch_words = 64 * 1024;
  unsigned bucket_bits = 16;
  unsigned sync_objects = UINT32_MAX;  // store entries the engine uses (0: every synchronization as set-row)
};

struct RunResult {
  std::vector<Race> golden, offload;
  offload::OffloadStats stats;
  uint64_t events = 0;
};

template <typename Backend, typename Source>
RunResult run_both(const RunShape& setup, Source&& next_event) {
  driver::DeviceOptions options = Backend::options();
  options.software_slots = setup.slots;
  options.software_clock_bits = setup.clock_bits;
  options.software_objects = setup.objects;
  options.software_read_vcs = setup.read_vcs;
  auto device = driver::open_device(options);
  offload::OffloadOptions oo;
  oo.batch_words = setup.batch_words;
  oo.bucket_bits = setup.bucket_bits;
  oo.sync_objects = setup.sync_objects;
  offload::OffloadChecker checker(*device, oo);
  DjitDetector golden;
  RunResult result;
  Event e;
  while (next_event(e)) {
    golden.process(e, result.events);
    checker.process(e, result.events);
    ++result.events;
  }
  checker.finish();
  result.golden = golden.races();
  result.offload = checker.races();
  result.stats = checker.stats();
  return result;
}

size_t atomic_races(const std::vector<Race>& races) {
  return static_cast<size_t>(
      std::count_if(races.begin(), races.end(), [](const Race& r) { return r.atomic || r.prev_atomic; }));
}

template <typename Backend>
class OffloadDifferential : public ::testing::Test {};
TYPED_TEST_SUITE(OffloadDifferential, Backends, BackendNames);

TYPED_TEST(OffloadDifferential, ExampleTracesMatchDjit) {
  size_t checked = 0, racy = 0;
  for (const auto& entry : std::filesystem::directory_iterator(RACEACCEL_EXAMPLES_DIR)) {
    const std::string path = entry.path().string();
    auto reader = open_trace(path);
    // malformed.std stops at its error: both see the same events before it.
    const RunResult r = run_both<TypeParam>(RunShape{}, [&](Event& e) {
      try {
        return reader->next(e);
      } catch (const TraceError&) {
        return false;
      }
    });
    expect_same_races(r.golden, r.offload, path);
    ++checked;
    racy += r.golden.empty() ? 0 : 1;
  }
  EXPECT_GE(checked, 5u);
  EXPECT_GT(racy, 0u);
}

// Random traces, in shapes that exercise every host path: the default
// shape, more threads than slots (forced escalation), narrow clocks (the
// overflow fallback), and tiny batches (boundaries everywhere).
struct RandomSuite {
  const char* name;
  RunShape setup;
  uint32_t max_threads;
  int traces;
};

template <typename Backend>
void run_random_suite(const RandomSuite& suite, uint64_t seed_base) {
  uint64_t events = 0, racy = 0, escalations = 0;
  for (int i = 0; i < suite.traces; ++i) {
    const GeneratorOptions o = offload_random_trace(seed_base + static_cast<uint64_t>(i), suite.max_threads);
    TraceGenerator generator(o);
    const RunResult r = run_both<Backend>(suite.setup, [&](Event& e) { return generator.next(e); });
    expect_same_races(
        r.golden, r.offload,
        std::string(suite.name) + " seed " + std::to_string(o.seed) + ", " + std::to_string(o.threads) + " threads");
    if (::testing::Test::HasFatalFailure()) return;
    events += r.events;
    racy += r.golden.empty() ? 0 : 1;
    escalations += r.stats.escalations;
  }
  EXPECT_GT(racy, 0u) << suite.name;
  ::testing::Test::RecordProperty("events", static_cast<int>(events));
  ::testing::Test::RecordProperty("escalations", static_cast<int>(escalations));
}

TYPED_TEST(OffloadDifferential, RandomTracesMatchDjit) {
  run_random_suite<TypeParam>({"default", RunShape{}, 24, 60}, 0xD15C'0000);
}

// Atomic accesses mixed with plain ones on the same variables: the device
// keeps no atomic history, so their granules are checked on the host
// (forced commands) and must give exactly DJIT+'s races, atomic side
// included.
TYPED_TEST(OffloadDifferential, AtomicsMixedWithPlainAccessesMatchDjit) {
  size_t with_atomic_side = 0;
  uint64_t atomic_commands = 0;
  for (uint64_t seed = 0xA70C'0000; seed < 0xA70C'0000 + 20; ++seed) {
    GeneratorOptions o = offload_random_trace(seed, 12);
    o.atomic_mixing = true;
    o.extras_weight = 40;
    o.std_only = false;
    TraceGenerator generator(o);
    const RunResult r = run_both<TypeParam>(RunShape{}, [&](Event& e) { return generator.next(e); });
    expect_same_races(r.golden, r.offload, "atomic mixing, seed " + std::to_string(seed));
    if (::testing::Test::HasFatalFailure()) return;
    with_atomic_side += atomic_races(r.golden);
    atomic_commands += r.stats.atomic_commands;
  }
  EXPECT_GT(with_atomic_side, 0u);
  EXPECT_GT(atomic_commands, 0u);
  ::testing::Test::RecordProperty("atomic_races", static_cast<int>(with_atomic_side));
}

TYPED_TEST(OffloadDifferential, TinyBatchesMatchDjit) {
  RunShape setup;
  setup.batch_words = 1;  // clamped to one set-row command: a launch every few events
  uint64_t batches = 0, events = 0;
  for (uint64_t seed = 0xBA7C'0000; seed < 0xBA7C'0000 + 10; ++seed) {
    TraceGenerator generator(offload_random_trace(seed, 8));
    const RunResult r = run_both<TypeParam>(setup, [&](Event& e) { return generator.next(e); });
    expect_same_races(r.golden, r.offload, "tiny batches, seed " + std::to_string(seed));
    batches += r.stats.batches;
    events += r.events;
  }
  EXPECT_GT(batches, events / 20) << "batches must be small for this test to mean anything";
}

// A free of a huge range sends commands only for the pages accesses touched
// (else 2^60 granule commands), and still clears their history exactly.
TYPED_TEST(OffloadDifferential, HugeFreeClearsOnlyWhatWasTouched) {
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::write(0, 0x1000, 8),
      Event::write(0, 0x7fff'0000'0000, 4),
      Event::range(Op::Free, 0, 0, uint64_t{1} << 63),
      Event::write(1, 0x1000, 8),  // no history left: no race
      Event::write(1, 0x7fff'0000'0000, 4),
      Event::write(0, 0x8000'0000'0000'0000, 8),  // beyond the freed range: keeps its history
      Event::write(1, 0x8000'0000'0000'0000, 8),  // races with the line above
  };
  size_t next = 0;
  const RunResult r = run_both<TypeParam>(RunShape{}, [&](Event& e) {
    if (next == events.size()) return false;
    e = events[next++];
    return true;
  });
  ASSERT_EQ(r.golden.size(), 8u);
  expect_same_races(r.golden, r.offload, "huge free");
  // Two touched 4 KB pages of 512 granules, plus the set-rows.
  EXPECT_LT(r.stats.command_words, 1200u) << "only granules of touched pages are freed";
}

// Locks whose memory is freed lose their clocks (ReferenceSyncState::forget):
// a new lock at the same address is loaded onto the chip empty, not from
// the store's copy of the old one. Lock clocks on chip (the sync-object
// store) and as set-rows; one lock freed, one freed by a free of a larger
// block, a read-write lock's shared side, and one lock kept (its ordering
// must survive the frees around it).
TYPED_TEST(OffloadDifferential, LocksInFreedMemoryStartOver) {
  // Addresses whose store entries (of 16) differ: a lock evicted by another
  // would be reloaded whatever the free did.
  constexpr uint64_t L = 0x5000, M = 0x5080, R = 0x6010, K = 0x7000;
  constexpr uint64_t X = 0x1000, Y = 0x1100, Z = 0x1200, W = 0x1300;
  const std::vector<Event> events = {
      Event::sync(Op::Fork, 0, 1),
      Event::sync(Op::Acquire, 0, L),
      Event::write(0, X, 8),
      Event::sync(Op::Release, 0, L),
      Event::sync(Op::Acquire, 0, M),
      Event::write(0, Y, 8),
      Event::sync(Op::Release, 0, M),
      Event::sync(Op::AcquireShared, 0, R),
      Event::read(0, Z, 8),
      Event::sync(Op::ReleaseShared, 0, R),
      Event::sync(Op::Acquire, 0, K),
      Event::write(0, W, 8),
      Event::sync(Op::Release, 0, K),
      Event::range(Op::Free, 0, L, 48),         // L alone
      Event::range(Op::Free, 0, M - 64, 1024),  // M inside a larger block
      Event::range(Op::Free, 0, R, 56),
      Event::range(Op::Alloc, 0, L, 48),
      Event::sync(Op::Acquire, 1, L),
      Event::read(1, X, 8),
      Event::sync(Op::Release, 1, L),  // races
      Event::sync(Op::Acquire, 1, M),
      Event::read(1, Y, 8),
      Event::sync(Op::Release, 1, M),  // races
      Event::sync(Op::Acquire, 1, R),
      Event::write(1, Z, 8),
      Event::sync(Op::Release, 1, R),  // races
      Event::sync(Op::Acquire, 1, K),
      Event::read(1, W, 8),
      Event::sync(Op::Release, 1, K),  // ordered
  };
  for (const unsigned entries : {16u, 0u}) {
    RunShape shape;
    shape.objects = entries;
    shape.sync_objects = entries;
    size_t next = 0;
    const RunResult r = run_both<TypeParam>(shape, [&](Event& e) {
      if (next == events.size()) return false;
      e = events[next++];
      return true;
    });
    ASSERT_EQ(r.golden.size(), 24u) << "X, Y and Z race, 8 bytes each; W is ordered by K";
    expect_same_races(r.golden, r.offload, std::to_string(entries) + " sync objects");
    if (entries != 0) {
      EXPECT_GT(r.stats.object_loads, 0u) << "the locks were on chip";
    }
  }
}

// A bucket table of two buckets: nearly every eviction finds its bucket
// taken and spills the line to the host, which owns it from then on.
TYPED_TEST(OffloadDifferential, TinyBucketTableSpillsExactly) {
  RunShape shape;
  shape.bucket_bits = 1;
  uint64_t spills = 0, evictions = 0;
  bool has_cache = false;
  for (uint64_t seed = 0x5B11'0000; seed < 0x5B11'0000 + 8; ++seed) {
    GeneratorOptions o = offload_random_trace(seed, 16);
    o.events = 12'000;
    TraceGenerator generator(o);
    const RunResult r = run_both<TypeParam>(shape, [&](Event& e) { return generator.next(e); });
    expect_same_races(r.golden, r.offload, "2 buckets, seed " + std::to_string(seed));
    spills += r.stats.spills;
    evictions += r.stats.device.writebacks;
    has_cache = r.stats.capabilities.sets != 0;
  }
  if (has_cache) {
    EXPECT_GT(spills, 0u) << evictions << " write-backs";
  } else {
    EXPECT_EQ(spills, 0u) << "a backend without a cache never evicts";
  }
}

// Lock-heavy traces with the lock clocks on chip through a store of two
// entries (on the software model a store of two; on the Verilated kernel
// two of its entries): nearly every lock event reloads its entry, and with
// more threads than slots the slotless threads' lock events stay set-row
// and make the entries they change stale. Then the same traces with every
// synchronization as set-row.
TYPED_TEST(OffloadDifferential, LocksThroughTwoSyncObjectsMatchDjit) {
  uint64_t loads = 0, sync_commands = 0, forced = 0;
  for (uint64_t seed = 0x0B1E'0000; seed < 0x0B1E'0000 + 12; ++seed) {
    GeneratorOptions o = offload_random_trace(seed, 14);
    o.threads = std::max<uint32_t>(o.threads, seed % 2 == 0 ? 10 : 3);  // half beyond the 8 slots
    o.locks = 3 + static_cast<uint32_t>(seed % 6);
    o.locked_weight = 40 + static_cast<uint32_t>(seed % 30);
    for (const unsigned entries : {2u, 0u}) {
      RunShape shape;
      shape.slots = 8;
      shape.objects = entries;
      shape.sync_objects = entries;
      TraceGenerator generator(o);
      const RunResult r = run_both<TypeParam>(shape, [&](Event& e) { return generator.next(e); });
      const std::string what = std::to_string(entries) + " sync objects, seed " + std::to_string(seed) + ", " +
                               std::to_string(o.threads) + " threads";
      expect_same_races(r.golden, r.offload, what);
      if (::testing::Test::HasFatalFailure()) return;
      if (entries == 0) {
        EXPECT_EQ(r.stats.sync_commands + r.stats.object_loads, 0u) << what;
      } else {
        loads += r.stats.object_loads;
        sync_commands += r.stats.sync_commands;
        forced += r.stats.forced;
      }
    }
  }
  EXPECT_GT(sync_commands, 1000u);
  EXPECT_GT(loads, sync_commands / 4) << "two entries for several locks must reload constantly";
  EXPECT_GT(forced, 0u) << "threads beyond the slots";
  ::testing::Test::RecordProperty("sync_commands", static_cast<int>(sync_commands));
  ::testing::Test::RecordProperty("object_loads", static_cast<int>(loads));
}

struct PoolCounts {
  uint64_t events = 0, escalations = 0, clock_spills = 0, clock_imports = 0, lastwrite_imports = 0, spills = 0;
  void add(const RunResult& r) {
    events += r.events;
    escalations += r.stats.escalations;
    clock_spills += r.stats.read_clock_spills;
    clock_imports += r.stats.read_clock_imports;
    lastwrite_imports += r.stats.lastwrite_imports;
    spills += r.stats.spills;
  }
};

template <typename Backend>
PoolCounts run_read_mostly(const RunShape& shape, uint64_t seed0, int traces, uint64_t words,
                           unsigned partial_permille = 40) {
  PoolCounts counts;
  for (uint64_t seed = seed0; seed < seed0 + static_cast<uint64_t>(traces); ++seed) {
    ReadMostlyTrace trace(seed, 2 + static_cast<uint32_t>(seed % 7), words, 3000, partial_permille);
    const RunResult r = run_both<Backend>(shape, [&](Event& e) { return trace.next(e); });
    expect_same_races(r.golden, r.offload, "read-mostly, seed " + std::to_string(seed));
    if (::testing::Test::HasFatalFailure()) return counts;
    counts.add(r);
  }
  ::testing::Test::RecordProperty("events", static_cast<int>(counts.events));
  ::testing::Test::RecordProperty("escalations", static_cast<int>(counts.escalations));
  ::testing::Test::RecordProperty("read_clock_spills", static_cast<int>(counts.clock_spills));
  ::testing::Test::RecordProperty("lastwrite_imports", static_cast<int>(counts.lastwrite_imports));
  return counts;
}

// Every path of the pool on the host: clocks carried by escalations
// (EVERYTHING lines), clocks spilled when another line takes the entry,
// and LASTWRITE lines imported with the spilled clock joined with R.
TYPED_TEST(OffloadDifferential, ReadMostlySharingMatchesDjitThroughThePool) {
  const PoolCounts c = run_read_mostly<TypeParam>(RunShape{}, 0x2EAD'0000, 10, 48);
  EXPECT_GT(c.clock_imports, 0u);
  EXPECT_GT(c.clock_spills, 0u) << "48 hot words on a 16-entry pool must collide";
  EXPECT_GT(c.lastwrite_imports, 0u);
}

TYPED_TEST(OffloadDifferential, MoreThreadsThanSlotsMatchDjit) {
  // Up to 100 threads: beyond the 64 slots of the default software model and
  // of the Verilated kernel, so their accesses are forced escalations.
  const RandomSuite suite{"many threads", RunShape{}, 100, 6};
  run_random_suite<TypeParam>(suite, 0x5107'0000);
}

// The software model takes its shape from the options, so it shows both
// exactness paths at a small scale.
TEST(OffloadSoftwareShapes, FourSlotsForceTheOtherThreads) {
  RunShape setup;
  setup.slots = 4;
  uint64_t forced = 0;
  for (uint64_t seed = 0x5107'1000; seed < 0x5107'1000 + 15; ++seed) {
    TraceGenerator generator(offload_random_trace(seed, 12));
    const RunResult r = run_both<SoftwareBackend>(setup, [&](Event& e) { return generator.next(e); });
    expect_same_races(r.golden, r.offload, "4 slots, seed " + std::to_string(seed));
    forced += r.stats.forced;
  }
  EXPECT_GT(forced, 0u) << "threads beyond the slots must have been forced";
}

// A 2-entry pool: nearly every allocation takes an entry from another
// line; and without a pool every READ SHARE goes to the host (the pool must
// save escalations on this trace, else it does nothing).
TEST(OffloadSoftwareShapes, TwoEntryPoolSpillsAndNoPoolEscalates) {
  RunShape two;
  two.slots = 8;
  two.read_vcs = 2;
  const PoolCounts small = run_read_mostly<SoftwareBackend>(two, 0x2EAD'1000, 10, 24);
  EXPECT_GT(small.clock_spills, small.clock_imports / 4);
  EXPECT_GT(small.lastwrite_imports, 0u);
  RunShape none = two;
  none.read_vcs = 0;
  const PoolCounts off = run_read_mostly<SoftwareBackend>(none, 0x2EAD'1000, 10, 24);
  EXPECT_EQ(off.clock_spills + off.clock_imports + off.lastwrite_imports, 0u);
  // 16 words, whole-word reads only: each word gets its own entry.
  RunShape sixteen = two;
  sixteen.read_vcs = 16;
  const PoolCounts on = run_read_mostly<SoftwareBackend>(sixteen, 0x2EAD'1000, 10, 16, 0);
  const PoolCounts off16 = run_read_mostly<SoftwareBackend>(none, 0x2EAD'1000, 10, 16, 0);
  EXPECT_LT(on.escalations, off16.escalations / 2) << "the pool must keep read-shared words on chip";
}

TEST(OffloadSoftwareShapes, NarrowClocksFallBackExactly) {
  RunShape setup;
  setup.slots = 8;
  setup.clock_bits = 5;
  int fell_back = 0;
  for (uint64_t seed = 0xC10C'0000; seed < 0xC10C'0000 + 15; ++seed) {
    TraceGenerator generator(offload_random_trace(seed, 8));
    const RunResult r = run_both<SoftwareBackend>(setup, [&](Event& e) { return generator.next(e); });
    expect_same_races(r.golden, r.offload, "5-bit clocks, seed " + std::to_string(seed));
    fell_back += r.stats.fell_back ? 1 : 0;
  }
  EXPECT_GT(fell_back, 0) << "some trace must outgrow 5-bit clocks";
}

// The host checks an escalated access with its thread's clock as of that
// access (the clock history: an entry at the first access after each clock
// change), and maps each record to its command across batches whose
// set-row and load-object data words sit between the commands. Lock-heavy
// random traces with more threads than slots (their accesses go to the host
// forced), two sync-object entries (reloads) and small batches, against
// DJIT+.
TEST(OffloadSoftwareShapes, ForcedAccessesBetweenLockEventsInSmallBatchesMatchDjit) {
  RunShape shape;
  shape.slots = 4;
  shape.objects = 2;
  shape.batch_words = 48;  // a launch every few dozen commands; with 4 slots a set-row or load is 1 + 1 words
  uint64_t forced = 0, escalations = 0, loads = 0, batches = 0;
  for (uint64_t seed = 0xC10C'0000; seed < 0xC10C'0000 + 24; ++seed) {
    GeneratorOptions o = offload_random_trace(seed, 12);
    o.locked_weight = 60;
    o.locks = 3;
    TraceGenerator generator(o);
    const RunResult r = run_both<SoftwareBackend>(shape, [&](Event& e) { return generator.next(e); });
    expect_same_races(r.golden, r.offload, "lock-heavy, 4 slots, seed " + std::to_string(seed));
    if (::testing::Test::HasFatalFailure()) return;
    forced += r.stats.forced;
    escalations += r.stats.escalations;
    loads += r.stats.object_loads;
    batches += r.stats.batches;
  }
  EXPECT_GT(forced, 0u) << "threads beyond the slots must have been forced";
  EXPECT_GT(escalations, forced / 2);
  EXPECT_GT(loads, 0u) << "two entries for three locks must reload";
  EXPECT_GT(batches, 24u * 10);
}

// Accesses after clock changes add clock history (an entry per access
// whose thread synchronized since its last one); when a batch holds more
// of them than the history's limit, the engine answers the batch early
// rather than let the history grow without bound, and stays exact.
TEST(OffloadSoftwareShapes, SyncHeavyThreadsWithoutSlotsLaunchEarly) {
  RunShape shape;
  shape.slots = 1;
  shape.batch_words = 1 << 20;  // more history entries than the limit (2^16) fit in one batch
  // Threads 1–8 (no slot) pass three locks around tens of thousands of
  // times and write under them; at the end two of them race.
  std::vector<Event> events;
  for (ThreadId t = 1; t <= 8; ++t) events.push_back(Event::sync(Op::Fork, 0, t));
  for (uint64_t k = 0; k < 80'000; ++k) {
    const ThreadId t = 1 + k % 8;
    events.push_back(Event::sync(Op::Acquire, t, k % 3));
    events.push_back(Event::write(t, 0x1000 + (k % 3) * 8, 8, 10 + t));
    events.push_back(Event::sync(Op::Release, t, k % 3));
  }
  events.push_back(Event::write(1, 0x9000, 4, 1));
  events.push_back(Event::write(2, 0x9000, 4, 2));
  size_t next = 0;
  const RunResult r = run_both<SoftwareBackend>(shape, [&](Event& e) {
    if (next == events.size()) return false;
    e = events[next++];
    return true;
  });
  expect_same_races(r.golden, r.offload, "1 slot, sync-heavy");
  EXPECT_EQ(r.golden.size(), 4u);
  EXPECT_GT(r.stats.early_batches, 0u) << r.stats.batches << " batches, " << r.stats.command_words << " words";
}

}  // namespace
}  // namespace raceaccel::test
