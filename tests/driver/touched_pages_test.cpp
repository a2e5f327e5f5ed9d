// TouchedPages (host/offload/touched_pages.*): the parts of a freed range
// that lie in pages an access touched. Checked against a brute-force model
// (every touched byte's page in a std::set, every freed byte's page looked
// up) on random accesses and frees, plus the edges: ranges ending at
// 2^64 - 1, empty ranges, accesses across a page boundary and ranges far
// larger than the set of touched pages.
#include "offload/touched_pages.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace raceaccel::offload {
namespace {

constexpr uint64_t kPage = uint64_t{1} << TouchedPages::kPageBits;

TEST(TouchedPages, NothingTouchedFreesNothing) {
  const TouchedPages pages;
  EXPECT_TRUE(pages.spans_in(0x7f0000000000, 8 << 20).empty());
  EXPECT_TRUE(pages.spans_in(0, UINT64_MAX).empty());
}

TEST(TouchedPages, EightMegabyteStackWithTwoTouchedPages) {
  TouchedPages pages;
  const uint64_t stack = 0x7f0000000000;
  pages.touch(stack + 0x1238, 8);
  pages.touch(stack + 0x7ff000 + 0xff8, 8);  // the stack's last page
  pages.touch(stack + 0x1240, 4);            // the same page again
  EXPECT_EQ(pages.size(), 2u);
  const std::vector<PageSpan> spans = pages.spans_in(stack, 8 << 20);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0], (PageSpan{stack + 0x1000, kPage}));
  EXPECT_EQ(spans[1], (PageSpan{stack + 0x7ff000, kPage}));
}

TEST(TouchedPages, SpansAreClippedToTheRange) {
  TouchedPages pages;
  pages.touch(0x5000, 1);
  pages.touch(0x6000, 1);
  const std::vector<PageSpan> spans = pages.spans_in(0x5ff0, 0x20);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0], (PageSpan{0x5ff0, 0x10}));
  EXPECT_EQ(spans[1], (PageSpan{0x6000, 0x10}));
  EXPECT_TRUE(pages.spans_in(0x5000, 0).empty());
}

TEST(TouchedPages, AnAccessAcrossAPageBoundaryTouchesBoth) {
  TouchedPages pages;
  pages.touch(0x8ffc, 8);
  EXPECT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages.spans_in(0x9000, 1).size(), 1u);
  EXPECT_EQ(pages.spans_in(0x8000, 1).size(), 1u);
}

TEST(TouchedPages, RangeEndingAtTheTopOfTheAddressSpace) {
  TouchedPages pages;
  pages.touch(UINT64_MAX - 3, 4);
  pages.touch(0x1000, 8);
  const std::vector<PageSpan> all = pages.spans_in(0, UINT64_MAX);  // every byte but the last
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0], (PageSpan{0x1000, kPage}));
  EXPECT_EQ(all[1], (PageSpan{UINT64_MAX - kPage + 1, kPage - 1}));
  const std::vector<PageSpan> top = pages.spans_in(UINT64_MAX - 15, 16);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0], (PageSpan{UINT64_MAX - 15, 16}));
}

// Both ways of walking (the range's pages, or the touched set when it is
// smaller) against a model that knows every touched page.
TEST(TouchedPages, AgreesWithABruteForceModel) {
  std::mt19937_64 rng(2026);
  for (int round = 0; round < 50; ++round) {
    TouchedPages pages;
    std::set<uint64_t> model;
    const uint64_t base = (rng() % 1000) * kPage;
    for (int i = 0; i < 200; ++i) {
      const uint64_t addr = base + rng() % (64 * kPage);
      const uint64_t size = 1 + rng() % 16;
      pages.touch(addr, size);
      for (uint64_t b = addr; b < addr + size; ++b) model.insert(b / kPage);
      ASSERT_EQ(pages.size(), model.size());
    }
    for (int i = 0; i < 50; ++i) {
      const uint64_t addr = base + rng() % (80 * kPage) - (rng() % 2 == 0 ? 0 : rng() % (8 * kPage));
      const uint64_t size = i % 2 == 0 ? 1 + rng() % (4 * kPage) : 1 + rng() % (100 * kPage);
      std::vector<PageSpan> expected;
      for (uint64_t p = addr / kPage; p <= (addr + size - 1) / kPage; ++p) {
        if (model.count(p) == 0) continue;
        const uint64_t lo = std::max(addr, p * kPage);
        const uint64_t hi = std::min(addr + size, (p + 1) * kPage);
        expected.push_back({lo, hi - lo});
      }
      ASSERT_EQ(pages.spans_in(addr, size), expected) << "round " << round << " free " << i;
    }
  }
}

}  // namespace
}  // namespace raceaccel::offload
