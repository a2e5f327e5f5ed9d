#include "runtime/sample_budget.hpp"

#include <algorithm>

namespace raceaccel::rt {

double water_level(const std::vector<uint64_t>& populations, double budget) {
  std::vector<uint64_t> sorted;
  sorted.reserve(populations.size());
  for (const uint64_t p : populations)
    if (p != 0) sorted.push_back(p);
  std::sort(sorted.begin(), sorted.end());
  if (sorted.empty()) return 0;
  // Raise nu past the populations in increasing order: below the k-th
  // smallest, the k smaller contexts are full and the rest each get nu.
  double full = 0;  // sum of the populations already below the level
  for (size_t k = 0; k < sorted.size(); ++k) {
    const double remaining = static_cast<double>(sorted.size() - k);
    const double level = (budget - full) / remaining;
    if (level <= static_cast<double>(sorted[k])) return std::max(level, 0.0);
    full += static_cast<double>(sorted[k]);
  }
  return static_cast<double>(sorted.back());  // the budget covers everything
}

std::vector<double> water_fill_rates(const std::vector<uint64_t>& populations, double budget) {
  const double level = water_level(populations, budget);
  std::vector<double> rates(populations.size(), 1.0);
  for (size_t i = 0; i < populations.size(); ++i) {
    if (populations[i] != 0) rates[i] = std::min(1.0, level / static_cast<double>(populations[i]));
  }
  return rates;
}

}  // namespace raceaccel::rt
