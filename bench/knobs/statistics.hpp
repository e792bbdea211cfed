#pragma once
// Summaries of benchmark runs: normalised running-best quality and tests to reach a quality level.
#include <algorithm>
#include <cmath>
#include <vector>

#include "sadsl/tune/knobs/search.hpp"

namespace sadsl::knobs::bench {

/// The q-quantile (0..1) of values, by linear interpolation between order statistics.
inline double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const auto above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

inline double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

/// Quality of a passing test relative to the space's optimum (1 = optimal), for either direction.
inline double normalised(double quality, double optimum, bool maximizing) {
  return maximizing ? quality / optimum : optimum / quality;
}

/// After each test (index t = tests - 1), the best normalised quality found so far (0: none passed).
/// Searches that ended early (space exhausted) keep their last value.
inline std::vector<double> running_best(const search_result& r, double optimum, bool maximizing, int tests) {
  std::vector<double> curve(static_cast<std::size_t>(tests), 0.0);
  double best = 0;
  for (int t = 0; t < tests; ++t) {
    if (t < static_cast<int>(r.history.size()) && r.history[static_cast<std::size_t>(t)].quality)
      best = std::max(best, normalised(*r.history[static_cast<std::size_t>(t)].quality, optimum, maximizing));
    curve[static_cast<std::size_t>(t)] = best;
  }
  return curve;
}

/// Tests needed until the running best reaches `level`; tests + 1 if it never does.
inline double tests_to_reach(const std::vector<double>& curve, double level) {
  for (std::size_t t = 0; t < curve.size(); ++t)
    if (curve[t] >= level - 1e-12) return static_cast<double>(t + 1);
  return static_cast<double>(curve.size() + 1);
}

}  // namespace sadsl::knobs::bench
