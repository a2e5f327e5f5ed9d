// Parallel checking (docs/runtime.md, "Parallel checking") under real
// concurrency. The recording-based differential tests serialize every
// operation (record= does), so here programs run live: 4 or more threads on
// fewer cores check their accesses at the same time, in shards and stripes
// shared between them. tests/runtime/programs/parallel_stress.c is built so
// that its racy bytes are the same in every schedule — exactly its `racy`
// array — so each run's verdict is known without a golden detector: a lost
// or spurious race, a crash or a hang of the checker fails the run whatever
// the interleaving was.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "process_runner.hpp"
#include "racy_bytes.hpp"

using raceaccel::test::add_range;
using raceaccel::test::ByteSet;
using raceaccel::test::live_racy_bytes;
using raceaccel::test::ProcessResult;
using raceaccel::test::run_process;

namespace {

// A run longer than this is a hang (a run takes well under a second).
constexpr const char* kTimeoutSeconds = "60";

// The racy array's bytes, from the program's "racy 0xADDR SIZE" line.
ByteSet expected_racy_bytes(const std::string& out) {
  const size_t at = out.find("racy ");
  ByteSet bytes;
  if (at == std::string::npos) {
    ADD_FAILURE() << "the program did not print its racy array:\n" << out;
    return bytes;
  }
  std::istringstream line(out.substr(at + 5));
  std::string addr;
  uint64_t size = 0;
  line >> addr >> size;
  add_range(bytes, std::stoull(addr, nullptr, 16), size);
  return bytes;
}

// The bytes of a that are not in b as hex ranges, at most a few of them.
std::string ranges_not_in(const ByteSet& a, const ByteSet& b) {
  std::string out;
  int shown = 0;
  uint64_t start = 0, last = 0;
  bool open = false;
  auto flush = [&] {
    if (open && shown++ < 8) {
      char text[64];
      std::snprintf(text, sizeof text, " 0x%llx+%llu", static_cast<unsigned long long>(start),
                    static_cast<unsigned long long>(last - start + 1));
      out += text;
    }
    open = false;
  };
  for (const uint64_t x : a) {
    if (b.contains(x)) continue;
    if (open && x == last + 1) {
      last = x;
      continue;
    }
    flush();
    start = last = x;
    open = true;
  }
  flush();
  if (shown > 8) out += " ... (" + std::to_string(shown) + " ranges)";
  return out.empty() ? " none" : out;
}

struct Runs {
  int threads = 4;
  int first_seed = 1;
  int seeds = 1;
  std::string options;  // besides verbosity=3
};

// Runs parallel_stress for each seed and requires exit status 66, the
// program's own sums, and exactly the racy array as the racy bytes.
void run_seeds(const Runs& runs) {
  const std::string program = std::string(RT_PROGRAM_DIR) + "/parallel_stress";
  for (int seed = runs.first_seed; seed < runs.first_seed + runs.seeds; ++seed) {
    const ProcessResult r = run_process(
        {"timeout", "-s", "KILL", kTimeoutSeconds, program, std::to_string(seed), std::to_string(runs.threads)},
        {"RACEACCEL_OPTIONS=verbosity=3 " + runs.options});
    const std::string what = "seed " + std::to_string(seed) + ", " + std::to_string(runs.threads) +
                             " threads, RACEACCEL_OPTIONS=verbosity=3 " + runs.options;
    ASSERT_NE(r.status, 128 + 9) << what << ": no exit after " << kTimeoutSeconds << " s (a hang)\n" << r.err;
    EXPECT_EQ(r.status, 66) << what << "\n" << r.err.substr(0, 4000);
    EXPECT_NE(r.out.find("sums ok"), std::string::npos) << what << ": the program's own bookkeeping\n" << r.out;
    const ByteSet expected = expected_racy_bytes(r.out);
    const ByteSet found = live_racy_bytes(r.err);
    EXPECT_TRUE(found == expected) << what << "\n  spurious:" << ranges_not_in(found, expected)
                                   << "\n  missed:" << ranges_not_in(expected, found) << "\n"
                                   << r.err.substr(0, 4000);
    if (testing::Test::HasFailure()) return;  // one seed's diagnosis is enough to read
  }
}

}  // namespace

// The default: parallel checking, region filter and coalescing on.
TEST(ParallelStress, FourThreadsFindExactlyTheRacyArray) { run_seeds({4, 1, 30, ""}); }

// More threads than the program's 16 locks' worth of contention on two
// cores: longer waits, more threads in the same shards at once.
TEST(ParallelStress, EightThreadsFindExactlyTheRacyArray) { run_seeds({8, 101, 8, ""}); }

// Two and three threads: every racy byte by both / by two of three.
TEST(ParallelStress, TwoAndThreeThreadsFindExactlyTheRacyArray) {
  run_seeds({2, 201, 4, ""});
  run_seeds({3, 301, 4, ""});
}

// Every access through the buffer and the shards, one by one.
TEST(ParallelStress, WithoutFilterOrCoalescingFindsExactlyTheRacyArray) {
  run_seeds({4, 401, 8, "region_filter=0 coalesce=0"});
}

// The control: the serial checker gives the same verdict.
TEST(ParallelStress, SerialCheckerFindsExactlyTheRacyArray) { run_seeds({4, 501, 5, "parallel=0"}); }
