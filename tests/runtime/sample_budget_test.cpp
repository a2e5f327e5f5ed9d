// CARISMA's budget water-filling (host/runtime/sample_budget.hpp) on the
// worked examples of the paper (ISSTA 2012, section 2) and of the seed
// digest (shared/reading/slimstate-fasttrack-carisma.md, section 3.2).
#include <gtest/gtest.h>

#include <numeric>

#include "runtime/sample_budget.hpp"

using raceaccel::rt::water_fill_rates;
using raceaccel::rt::water_level;

// Section 2: 8 general accounts and 2 savings accounts, budget 4 -> level 2,
// the general site at 0.25, the savings site checked fully.
TEST(SampleBudget, PaperExample) {
  EXPECT_DOUBLE_EQ(water_level({8, 2}, 4), 2);
  const auto rates = water_fill_rates({8, 2}, 4);
  EXPECT_DOUBLE_EQ(rates[0], 0.25);
  EXPECT_DOUBLE_EQ(rates[1], 1.0);
}

// P = (1e6, 1e3, 1e2, 10, 1) at r = 1 %: the four small contexts are checked
// fully, the large one at about 0.0089; the budget is spent exactly.
TEST(SampleBudget, SmallContextsFullHugeOneSampled) {
  const std::vector<uint64_t> p{1000000, 1000, 100, 10, 1};
  const double budget = 0.01 * std::accumulate(p.begin(), p.end(), 0.0);
  const auto rates = water_fill_rates(p, budget);
  for (size_t i = 1; i < p.size(); ++i) EXPECT_DOUBLE_EQ(rates[i], 1.0) << i;
  EXPECT_NEAR(rates[0], 0.0089, 0.0001);
  double spent = 0;
  for (size_t i = 0; i < p.size(); ++i) spent += rates[i] * static_cast<double>(p[i]);
  EXPECT_NEAR(spent, budget, 1e-6);
}

TEST(SampleBudget, EdgeCases) {
  // The budget covers everything: all checked.
  for (const double r : water_fill_rates({5, 7}, 100)) EXPECT_DOUBLE_EQ(r, 1.0);
  // Equal contexts share evenly.
  for (const double r : water_fill_rates({100, 100, 100, 100}, 40)) EXPECT_DOUBLE_EQ(r, 0.1);
  // No budget: nothing checked; a context with no count yet stays at 1.
  const auto none = water_fill_rates({10, 0}, 0);
  EXPECT_DOUBLE_EQ(none[0], 0.0);
  EXPECT_DOUBLE_EQ(none[1], 1.0);
  EXPECT_TRUE(water_fill_rates({}, 10).empty());
}
