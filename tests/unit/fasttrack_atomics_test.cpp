// AtomicShadow (host/detect/fasttrack_atomics.hpp): the open-addressed table
// of atomic histories against an ordered map, over random inserts, finds
// and erases of single bytes and of ranges (the backward shift after an
// erase must keep every other byte reachable).
#include "detect/fasttrack_atomics.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace raceaccel {
namespace {

// Each history is tagged with its byte (reads slot 0 = addr), so a find that
// returns another byte's history is caught.
void expect_same(const AtomicShadow& shadow, const std::map<uint64_t, bool>& model, uint64_t lo, uint64_t hi) {
  ASSERT_EQ(shadow.bytes(), model.size());
  for (uint64_t a = lo; a < hi; ++a) {
    const AtomicHistory* h = shadow.find(a);
    if (model.count(a) != 0) {
      ASSERT_NE(h, nullptr) << "byte " << a << " lost";
      ASSERT_EQ(h->reads.clock(0), a + 1) << "byte " << a << " has another byte's history";
      ASSERT_EQ(h->writes.size(), 0u);
    } else {
      ASSERT_EQ(h, nullptr) << "byte " << a << " should have no history";
    }
  }
}

TEST(AtomicShadow, MatchesAnOrderedMapUnderRandomInsertsAndErases) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    AtomicShadow shadow;
    std::map<uint64_t, bool> model;
    // Few distinct bytes in a small window: long probe runs, many collisions.
    const uint64_t base = (rng() % 1000) * 4096, window = 64 + rng() % 512;
    for (int step = 0; step < 3000; ++step) {
      const uint64_t a = base + rng() % window;
      switch (rng() % 6) {
        case 0:
        case 1:
        case 2: {
          AtomicHistory& h = shadow.at(a);
          if (model.count(a) == 0) {
            ASSERT_EQ(h.reads.size(), 0u) << "a new byte's history must be empty (reused ones cleared)";
            h.reads.set(0, a + 1, 7);
            model[a] = true;
          }
          break;
        }
        case 3:
          shadow.erase(a, 1);
          model.erase(a);
          break;
        case 4: {  // a range: small ones byte by byte, large ones by visiting the table
          const uint64_t size = rng() % 2 == 0 ? 1 + rng() % 16 : 1 + rng() % (2 * window);
          shadow.erase(a, size);
          model.erase(model.lower_bound(a), model.lower_bound(a + size));
          break;
        }
        default: ASSERT_EQ(shadow.find(a) != nullptr, model.count(a) != 0);
      }
      if (step % 97 == 0) expect_same(shadow, model, base, base + window);
    }
    expect_same(shadow, model, base, base + window);
  }
}

TEST(AtomicShadow, AHistoryStaysPutWhileOthersAreInserted) {
  AtomicShadow shadow;
  AtomicHistory* first = &shadow.at(1000);
  first->writes.set(2, 5, 9);
  for (uint64_t a = 0; a < 5000; ++a) shadow.at(2000 + a * 8);  // many rehashes
  EXPECT_EQ(shadow.find(1000), first);
  EXPECT_EQ(first->writes.clock(2), 5u);
  EXPECT_EQ(shadow.bytes(), 5001u);
  shadow.erase(0, ~uint64_t{0});
  EXPECT_EQ(shadow.bytes(), 0u);
  EXPECT_EQ(shadow.find(1000), nullptr);
}

}  // namespace
}  // namespace raceaccel
