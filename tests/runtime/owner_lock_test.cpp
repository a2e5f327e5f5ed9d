// OwnerLock (host/runtime/owner_lock.hpp): the owner's fast path and other
// threads' lock exclude each other. Each side updates plain (non-atomic)
// counters inside the lock, reading both first and writing both after a
// pause, so an overlap of two critical sections loses updates or breaks the
// invariant between the two counters.
#include "runtime/owner_lock.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace raceaccel::rt {
namespace {

struct Shared {
  OwnerLock lock;
  // Plain fields on purpose: the lock is what orders them.
  uint64_t total = 0;
  uint64_t mirror = 0;  // always equal to total outside the lock
};

void critical_section(Shared& s, std::atomic<bool>& broken) {
  const uint64_t t = s.total;
  const uint64_t m = s.mirror;
  if (t != m) broken.store(true);
  for (int i = 0; i < 8; ++i) std::atomic_signal_fence(std::memory_order_seq_cst);  // widen the window
  s.total = t + 1;
  s.mirror = m + 1;
}

void run(bool biased, int owner_rounds, int others, int other_rounds) {
  if (biased) {
    ASSERT_TRUE(OwnerLock::enable_bias()) << "membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) failed";
  }
  Shared s;
  std::atomic<bool> broken{false};
  std::thread owner([&] {
    for (int i = 0; i < owner_rounds; ++i) {
      OwnerLockGuard guard(s.lock);
      critical_section(s, broken);
    }
  });
  std::vector<std::thread> rest;
  for (int o = 0; o < others; ++o) {
    rest.emplace_back([&] {
      for (int i = 0; i < other_rounds; ++i) {
        std::lock_guard<OwnerLock> guard(s.lock);
        critical_section(s, broken);
      }
    });
  }
  owner.join();
  for (auto& t : rest) t.join();
  EXPECT_FALSE(broken.load());
  EXPECT_EQ(s.total, uint64_t(owner_rounds) + uint64_t(others) * uint64_t(other_rounds));
  EXPECT_EQ(s.mirror, s.total);
}

TEST(OwnerLock, OwnerAndOthersExcludeEachOtherWithBias) { run(true, 2'000'000, 2, 20'000); }

TEST(OwnerLock, OwnerAndOthersExcludeEachOtherOnTheMutexAlone) {
  // What a kernel without membarrier gets: every side takes the mutex.
  struct Restore {
    ~Restore() { OwnerLock::enable_bias(); }
  } restore;
  OwnerLock::disable_bias_for_test();
  run(false, 200'000, 2, 20'000);
}

TEST(OwnerLock, ResetAfterForkLeavesItFree) {
  ASSERT_TRUE(OwnerLock::enable_bias());
  OwnerLock lock;
  lock.lock();  // as if a thread that is gone in the child held it
  lock.reset_after_fork();
  OwnerLockGuard owner(lock);  // would wait forever if it were still revoked or held
  SUCCEED();
}

}  // namespace
}  // namespace raceaccel::rt
