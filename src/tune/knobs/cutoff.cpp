#include "sadsl/tune/knobs/cutoff.hpp"

#include <algorithm>
#include <limits>

namespace sadsl::knobs {

std::optional<normal> failure_cutoff(const std::vector<double>& passed, const std::vector<double>& failed) {
  if (failed.empty()) return std::nullopt;
  constexpr double none = -std::numeric_limits<double>::infinity();
  const double lowest_failed = *std::min_element(failed.begin(), failed.end());
  const double highest_passed = passed.empty() ? none : *std::max_element(passed.begin(), passed.end());
  double top = none;  // the lowest failed value above every passed one
  for (double v : failed)
    if (v > highest_passed && (top == none || v < top)) top = v;
  if (top == none) top = std::max(highest_passed, *std::max_element(failed.begin(), failed.end()));
  std::vector<double> region;
  for (const auto* values : {&passed, &failed})
    for (double v : *values)
      if (v >= lowest_failed && v <= top) region.push_back(v);
  const double n = static_cast<double>(region.size());
  double mean = 0, variance = 0;
  for (double v : region) mean += v / n;
  for (double v : region) variance += (v - mean) * (v - mean) / n;
  return normal{mean, variance};
}

}  // namespace sadsl::knobs
