#pragma once
// Small integer helpers shared by the searches.
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sadsl::tune {

inline bool is_power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// The divisors of n >= 1, ascending.
inline std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    low.push_back(d);
    if (d != n / d) high.push_back(n / d);
  }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

/// divisors(n), remembered per thread: the searches ask for the divisors of the same few sizes
/// and factors for every random tiling and mutation (a tenth of the exact search's ranking).
inline const std::vector<std::int64_t>& known_divisors(std::int64_t n) {
  thread_local std::unordered_map<std::int64_t, std::vector<std::int64_t>> known;
  if (auto found = known.find(n); found != known.end()) return found->second;
  if (known.size() >= 4096) known.clear();  // a bound on the memory, not on correctness
  return known.emplace(n, divisors(n)).first->second;
}

/// The element of the sorted, non-empty `values` nearest to `v` (ties to the smaller).
inline std::int64_t nearest(const std::vector<std::int64_t>& values, std::int64_t v) {
  auto above = std::lower_bound(values.begin(), values.end(), v);
  if (above == values.end()) return values.back();
  if (above == values.begin() || *above == v) return *above;
  auto below = above - 1;
  return v - *below <= *above - v ? *below : *above;
}

}  // namespace sadsl::tune
