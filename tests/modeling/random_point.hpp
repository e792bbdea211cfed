#pragma once
// Random design points for the model tests.
#include <random>
#include <vector>

#include "sadsl/compute/design.hpp"

namespace sadsl::testing {

// The extent of band loop l at the kernel's current sizes.
inline int64_t loop_extent(const design& d, const loop_id& l) {
  affine e = d.band->extent(l);
  int64_t v = e.constant();
  for (const auto& t : e.terms()) v += t.coefficient * detail::size_of(*t.symbol);
  return v;
}

// A random legal point: first-level factors anywhere in [1, the loop's extent] (non-divisors pad),
// deeper ones random divisors of their parent within their bounds.
inline design_point random_point(const design& d, std::mt19937_64& rng) {
  design_point p;
  for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd})
    for (const auto& f : d.factors) {
      if (f.id.level != level) continue;
      if (!f.parent) {
        p[f.id] = std::uniform_int_distribution<int64_t>(1, loop_extent(d, f.id.loop))(rng);
        continue;
      }
      std::vector<int64_t> choices;
      int64_t parent = p.at(*f.parent);
      for (int64_t t = 1; t <= parent; ++t)
        if (parent % t == 0 && (!f.power_of_two || (t & (t - 1)) == 0) && (f.max_value == 0 || t <= f.max_value))
          choices.push_back(t);
      p[f.id] = choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng)];
    }
  return p;
}

// The PEs along each space loop at point p: t1 / the loop's next factor.
inline std::vector<int64_t> pe_grid(const design& d, const design_point& p) {
  std::vector<int64_t> grid;
  for (const auto& l : d.space) {
    std::vector<factor_id> chain = d.chain(l);
    grid.push_back(p.at(chain[0]) / (chain.size() > 1 ? p.at(chain[1]) : 1));
  }
  return grid;
}

}  // namespace sadsl::testing
