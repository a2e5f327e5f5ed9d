// The sync-free region filter (host/runtime/region_filter.hpp) against the
// golden detector. Each run checks a seeded random program live with the
// filter on while recording the unfiltered stream (record=: the accesses the
// filter decided are recorded, not checked); DJIT+ replaying the recording
// must find exactly the racy bytes the runtime found live (verbosity=3
// prints them). Hundreds of seeds per test, on programs built from the
// filter's edge cases (tests/runtime/programs/region_mix.c).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process_runner.hpp"
#include "racy_bytes.hpp"

using raceaccel::test::add_range;
using raceaccel::test::ByteSet;
using raceaccel::test::difference;
using raceaccel::test::golden_racy_bytes;
using raceaccel::test::live_racy_bytes;
using raceaccel::test::ProcessResult;
using raceaccel::test::run_process;

namespace {

std::string program(const std::string& name) { return std::string(RT_PROGRAM_DIR) + "/" + name; }

// "N accesses decided by the region filter" of the verbosity=1 line.
uint64_t filtered_accesses(const std::string& err) {
  const size_t at = err.find(" accesses decided by the region filter");
  if (at == std::string::npos) return 0;
  const size_t start = err.rfind(' ', at - 1) + 1;
  return std::stoull(err.substr(start, at - start));
}

// "(N by the callbacks)" of the verbosity=1 line: accesses added to an
// open run inline (extend_stream).
uint64_t streamed_accesses(const std::string& err) {
  const size_t at = err.find(" by the callbacks)");
  if (at == std::string::npos) return 0;
  const size_t start = err.rfind('(', at) + 1;
  return std::stoull(err.substr(start, at - start));
}

// Racy bytes as offsets from the address a program printed as "arr=0x...".
ByteSet relative_to_array(const ByteSet& bytes, const std::string& out) {
  const size_t at = out.find("arr=");
  EXPECT_NE(at, std::string::npos) << out;
  if (at == std::string::npos) return {};
  const uint64_t base = std::stoull(out.substr(at + 4), nullptr, 16);
  ByteSet offsets;
  for (const uint64_t b : bytes) offsets.insert(b - base);
  return offsets;
}

struct Totals {
  size_t racy_runs = 0;
  uint64_t filtered = 0;
};

// Runs `name seed threads` for seeds [first, first + runs) with the given
// extra options and compares live and golden racy bytes for each.
Totals run_seeds(const std::string& name, int threads, int first, int runs, const std::string& extra = "") {
  const std::string trace = "/tmp/raceaccel_region_" + std::to_string(getpid()) + ".rtrace";
  Totals totals;
  for (int seed = first; seed < first + runs; ++seed) {
    const ProcessResult r = run_process({program(name), std::to_string(seed), std::to_string(threads)},
                                        {"RACEACCEL_OPTIONS=verbosity=3 record=" + trace + " " + extra});
    EXPECT_TRUE(r.status == 0 || r.status == 66) << name << " seed " << seed << "\n" << r.err;
    const ByteSet live = live_racy_bytes(r.err);
    const ByteSet golden = golden_racy_bytes(RACEACCEL_CLI, trace);
    EXPECT_TRUE(live == golden) << name << " seed " << seed << " threads " << threads << " " << extra
                                << "\n  only live:" << difference(live, golden)
                                << "\n  only golden:" << difference(golden, live);
    EXPECT_EQ(r.status, live.empty() ? 0 : 66) << name << " seed " << seed;
    totals.racy_runs += !live.empty();
    totals.filtered += filtered_accesses(r.err);
    if (testing::Test::HasFailure()) break;  // one seed's diff is enough to read
  }
  std::remove(trace.c_str());
  return totals;
}

}  // namespace

TEST(RegionFilter, EdgeCaseProgramsFindTheGoldenRacyBytes4Threads) {
  const Totals t = run_seeds("region_mix", 4, 1, 400);
  EXPECT_GT(t.racy_runs, 0u);
  EXPECT_GT(t.filtered, 0u);  // the filter did decide accesses
}

TEST(RegionFilter, EdgeCaseProgramsFindTheGoldenRacyBytes8Threads) {
  const Totals t = run_seeds("region_mix", 8, 1001, 200);
  EXPECT_GT(t.racy_runs, 0u);
  EXPECT_GT(t.filtered, 0u);
}

TEST(RegionFilter, TwoThreadsFindTheGoldenRacyBytes) {
  const Totals t = run_seeds("region_mix", 2, 2001, 300);
  EXPECT_GT(t.filtered, 0u);
}

TEST(RegionFilter, LockAndAtomicMixFindsTheGoldenRacyBytes) {
  const Totals t = run_seeds("random_mix", 4, 3001, 100);
  EXPECT_GT(t.racy_runs, 0u);
  EXPECT_GT(t.filtered, 0u);
}

// Runs extended by the callbacks themselves (runtime.hpp, extend_stream):
// stream_mix's threads meet only at barriers, so its racy bytes are the
// same in every run of a seed, and a run with the fast path on (it is off
// while recording) must find exactly the bytes the golden detector finds in
// a recording of another run. Its loops end streams at the edges of the
// threads' parts of the array and break them with calls, atomics,
// allocations, locks and other sizes: extending a run over a byte not
// accessed, across an event that ends it, from another call stack or out of
// its pattern adds racy bytes, and losing an access loses some.
struct StreamTotals {
  uint64_t streamed = 0;
  size_t racy_runs = 0;
  uint64_t ticks = 0;
};
StreamTotals run_stream_seeds(int first, int runs, const std::string& timer_us) {
  const std::string trace = "/tmp/raceaccel_stream_" + std::to_string(getpid()) + ".rtrace";
  StreamTotals totals;
  for (int seed = first; seed < first + runs; ++seed) {
    const std::vector<std::string> args = {program("stream_mix"), std::to_string(seed), std::to_string(2 + seed % 3)};
    std::vector<std::string> live_args = args;
    live_args.push_back(timer_us);
    const ProcessResult live = run_process(live_args, {"RACEACCEL_OPTIONS=verbosity=3"});
    const ProcessResult recorded = run_process(args, {"RACEACCEL_OPTIONS=verbosity=3 record=" + trace});
    EXPECT_TRUE(live.status == 0 || live.status == 66) << live.err;
    const ByteSet golden = relative_to_array(golden_racy_bytes(RACEACCEL_CLI, trace), recorded.out);
    const ByteSet found = relative_to_array(live_racy_bytes(live.err), live.out);
    EXPECT_TRUE(found == golden) << "stream_mix seed " << seed << " timer " << timer_us
                                 << "\n  only live:" << difference(found, golden)
                                 << "\n  only golden:" << difference(golden, found);
    EXPECT_EQ(relative_to_array(live_racy_bytes(recorded.err), recorded.out), golden) << "seed " << seed;
    totals.streamed += streamed_accesses(live.err);
    totals.racy_runs += !found.empty();
    if (const size_t at = live.out.find("ticks="); at != std::string::npos)
      totals.ticks += std::stoull(live.out.substr(at + 6));
    if (testing::Test::HasFailure()) break;
  }
  std::remove(trace.c_str());
  return totals;
}

TEST(RegionFilter, InlineRunsFindTheGoldenRacyBytesOfAnotherRun) {
  const StreamTotals t = run_stream_seeds(1, 60, "0");
  EXPECT_GT(t.racy_runs, 0u);
  EXPECT_GT(t.streamed, 10000u);  // the callbacks did extend runs
}

// The same under a profiling timer every 50 us: handlers that run a stream
// of their own and take a (thread-local) lock land inside the loops and
// their callbacks. Fails when extend_stream tests and updates a run
// without deferring signals.
TEST(RegionFilter, InlineRunsUnderSignalsFindTheGoldenRacyBytesOfAnotherRun) {
  const StreamTotals t = run_stream_seeds(101, 40, "50");
  EXPECT_GT(t.racy_runs, 0u);
  EXPECT_GT(t.streamed, 10000u);
  EXPECT_GT(t.ticks, 40u);  // the handlers did run
}

// A program linked with another version's callbacks shares TLS of another
// layout with the runtime (hot_path.hpp): the runtime stops it before main,
// naming the program, with status 2. Fails when check_fast_path_layout is
// not called, or accepts a program without this version's layout symbol
// (every program linked with the archive, which the other tests run,
// fails when it refuses the right one).
TEST(RegionFilter, CallbacksOfAnotherVersionAreRefused) {
  const ProcessResult r = run_process({program("foreign_callbacks")});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("foreign_callbacks was linked with the access callbacks (libraceaccel_rt_fast.a) of another "
                       "raceaccel version"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

// A block read in one region before and after another thread allocated it
// again: the second read races with the allocation, and the first one
// cannot stand in for it (the Alloc discarded its history). Fails when an
// allocation does not end the other threads' regions (region_filter.hpp).
TEST(RegionFilter, AllocationByAnotherThreadEndsTheRegion) {
  const std::string trace = "/tmp/raceaccel_region_hazard_" + std::to_string(getpid()) + ".rtrace";
  // Live alone, the inline fast path decides the accesses (recording takes
  // the full path: record_access); recorded, DJIT+ replays the same run.
  for (const char* extra : {"", " record="}) {
    const std::string options = std::string("RACEACCEL_OPTIONS=verbosity=3") + extra + (*extra ? trace : "");
    const ProcessResult r = run_process({program("alloc_reuse_hazard")}, {options});
    ASSERT_NE(r.status, 3) << r.err;  // glibc handed the same block back
    EXPECT_EQ(r.status, 66) << options << "\n" << r.err;
    const ByteSet live = live_racy_bytes(r.err);
    EXPECT_EQ(live.size(), 8u) << options << "\n" << r.err;
    if (*extra) {
      EXPECT_EQ(live, golden_racy_bytes(RACEACCEL_CLI, trace));
    }
  }
  std::remove(trace.c_str());
}

// Spinning on atomic loads: the repeats are decided without the checker, and
// the load that sees a new value must still be checked (its acquire orders
// the reads after it). Clean, live and on the recording; fails when a repeat
// is decided without comparing the location's store version.
TEST(RegionFilter, RepeatedAtomicLoadsKeepTheirAcquires) {
  const std::string trace = "/tmp/raceaccel_region_spin_" + std::to_string(getpid()) + ".rtrace";
  uint64_t repeats = 0;
  for (const char* extra : {"", " record="}) {
    const std::string options = std::string("RACEACCEL_OPTIONS=verbosity=3") + extra + (*extra ? trace : "");
    const ProcessResult r = run_process({program("spin_publication"), "3000"}, {options});
    EXPECT_EQ(r.status, 0) << options << "\n" << r.err;
    EXPECT_TRUE(live_racy_bytes(r.err).empty()) << options << "\n" << r.err;
    repeats += filtered_accesses(r.err);
  }
  EXPECT_TRUE(golden_racy_bytes(RACEACCEL_CLI, trace).empty());
  EXPECT_GT(repeats, 0u);  // the fast path did decide loads
  std::remove(trace.c_str());
}

// raceaccel-cc links the access callbacks into the executable
// (libraceaccel_rt_fast.a, host/runtime/hot_path.hpp): the program's copy of
// the fast path's TLS and forget epoch must be the one the runtime uses, or
// the program's fast path would read a view the runtime never sets (every
// access then takes the runtime's slow path: no verdict changes, so the
// differential tests cannot see it; the dynamic linker's bindings can).
// Without the archive (RACEACCEL_STATIC_CALLBACKS=0) the program calls the
// runtime's callbacks. Both decide the same accesses and find the golden
// racy bytes.
TEST(RegionFilter, CallbacksLinkedIntoTheProgramShareTheRuntimesState) {
  const auto bindings = [](const std::string& name) {
    const ProcessResult r =
        run_process({program(name), "1", "1"}, {"LD_DEBUG=bindings", "RACEACCEL_OPTIONS=verbosity=1"});
    EXPECT_EQ(r.status, 0) << name;
    return r.err;
  };
  const std::string linked = bindings("region_mix");
  for (const char* symbol : {"_ZN9raceaccel2rt8t_regionE", "_ZN9raceaccel2rt8t_threadE",
                             "_ZN9raceaccel2rt12t_in_runtimeE", "_ZN9raceaccel2rt14g_forget_epochE"}) {
    const std::string binding = "libraceaccel_rt.so [0] to " + program("region_mix") + " [0]: normal symbol `" + symbol;
    EXPECT_NE(linked.find(binding), std::string::npos) << "the runtime's " << symbol << " is not the program's";
  }
  const std::string unlinked = bindings("region_mix_runtime_callbacks");
  for (const char* callback : {"__tsan_write", "__tsan_func_entry", "__tsan_func_exit"}) {
    const std::string to_runtime = std::string("libraceaccel_rt.so [0]: normal symbol `") + callback;
    EXPECT_EQ(linked.find(to_runtime), std::string::npos) << "region_mix calls the runtime's " << callback;
    EXPECT_NE(unlinked.find(to_runtime), std::string::npos)
        << "region_mix_runtime_callbacks does not call the runtime's " << callback;
  }

  const auto decided = [](const std::string& name) {
    uint64_t total = 0;
    for (int seed = 1; seed <= 6; ++seed) {
      const ProcessResult r =
          run_process({program(name), std::to_string(seed), "1"}, {"RACEACCEL_OPTIONS=verbosity=1"});
      EXPECT_EQ(r.status, 0) << name << " seed " << seed << "\n" << r.err;
      total += filtered_accesses(r.err);
    }
    return total;
  };
  // Within 1 %, as in YoungTableDecidesWhatTheWholeTableDecides: the heap's
  // placement differs from run to run.
  const uint64_t in_program = decided("region_mix");
  const uint64_t in_runtime = decided("region_mix_runtime_callbacks");
  ASSERT_GT(in_runtime, 1000u);
  EXPECT_GE(in_program * 100, in_runtime * 99) << in_program << " decided, " << in_runtime << " by the runtime's";
  EXPECT_LE(in_program * 100, in_runtime * 101) << in_program << " decided, " << in_runtime << " by the runtime's";

  const Totals t = run_seeds("region_mix_runtime_callbacks", 4, 1, 40);
  EXPECT_GT(t.racy_runs, 0u);
  EXPECT_GT(t.filtered, 0u);
}
