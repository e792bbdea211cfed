#pragma once
// Helpers of the comm tests: tilings of the three shapes the executor sweep covers.
#include <algorithm>
#include <cstdint>

#include <sadsl/sadsl.hpp>

namespace sadsl::testing {

/// The widest extent of a band loop at the current param values (triangular loops: their
/// outermost range).
inline int64_t widest_extent(const design& d, const loop_id& l) {
  return d.band->extent(l).evaluate(
      [](const detail::symbol_node& s) { return s.kind == detail::symbol_kind::param ? s.value : 0; });
}

enum class tiling_shape {
  non_divisor,  // first-level factors half the extent plus one (a partial tile), inner factors below them
  wide,         // first-level factors half the extent, the largest inner factors (SIMD > 1, wide words)
  tiny,         // every factor 1
};

/// A point of design d of the given shape; every relation of the factors holds.
inline design_point tiling(const design& d, tiling_shape shape) {
  design_point p;
  for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd})
    for (const auto& f : d.factors) {
      if (f.id.level != level) continue;
      if (shape == tiling_shape::tiny) {
        p[f.id] = 1;
      } else if (!f.parent) {
        int64_t n = widest_extent(d, f.id.loop);
        p[f.id] = std::max<int64_t>(1, shape == tiling_shape::non_divisor ? n / 2 + 1 : n / 2);
      } else {
        int64_t parent = p.at(*f.parent), best = 1;
        for (int64_t t = 1; t <= parent; ++t)
          if (parent % t == 0 && (!f.power_of_two || (t & (t - 1)) == 0) && (f.max_value == 0 || t <= f.max_value) &&
              (shape == tiling_shape::wide || t < parent))
            best = t;
        p[f.id] = best;
      }
    }
  return p;
}

}  // namespace sadsl::testing
