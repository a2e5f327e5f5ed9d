// CARISMA's budget allocation (Zhai et al., ISSTA 2012, eqs. 3-5): given the
// population of each sampling context (here: the accesses seen so far from
// memory of each allocation site) and a total budget B (accesses to check),
// give every context the same share of B, except that no context gets more
// than its whole population: B_i = min(P_i, nu), with nu chosen so that the
// B_i add up to B ("water-filling"), and the context's rate is B_i / P_i.
// Rarely accessed contexts are thus checked fully, hot ones sampled down.
// Pure functions, so that tests/runtime/sample_budget_test.cpp can check
// them against the paper's worked examples without the runtime.
#pragma once

#include <cstdint>
#include <vector>

namespace raceaccel::rt {

// The water level nu: the largest value with sum_i min(P_i, nu) <= budget
// (infinity-like, the largest population, when the budget covers them all).
double water_level(const std::vector<uint64_t>& populations, double budget);

// r_i = min(P_i, nu) / P_i for each context, and 1 for an empty one (a
// context seen for the first time is checked fully until it has a count).
std::vector<double> water_fill_rates(const std::vector<uint64_t>& populations, double budget);

}  // namespace raceaccel::rt
