#pragma once
// Helpers of the comm and codegen tests: tilings of the three shapes the sweeps cover, the
// integer MM kernels, a design by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include <sadsl/comm/executor.hpp>
#include <sadsl/sadsl.hpp>

namespace sadsl::testing {

/// The design of k named `name` (the test fails without one).
inline design find_design(const kernel& k, const std::string& name) {
  for (const auto& d : designs(k))
    if (d.name() == name) return d;
  FAIL("no design " << name);
  return designs(k).front();
}

/// MM with every size n.
inline kernel mm_at(int64_t n) {
  kernel k = catalog::mm();
  for (const char* p : {"I", "J", "K"}) k.get_param(p).set(n);
  return k;
}

/// The widest extent of a band loop at the current param values (triangular loops: their
/// outermost range).
inline int64_t widest_extent(const design& d, const loop_id& l) {
  return d.band->extent(l).evaluate(
      [](const detail::symbol_node& s) { return s.kind == detail::symbol_kind::param ? detail::size_of(s) : 0; });
}

enum class tiling_shape {
  non_divisor,  // first-level factors half the extent plus one (a partial tile), inner factors below them
  wide,         // first-level factors half the extent, the largest inner factors (SIMD > 1, wide words)
  tiny,         // every factor 1
  whole,        // first-level factors the whole extent (one tile per loop: AutoSA's LU array), inner
                // factors below them
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
        p[f.id] = std::max<int64_t>(1, shape == tiling_shape::whole ? n : shape == tiling_shape::non_divisor ? n / 2 + 1 : n / 2);
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

/// The integer-input MM variants of the sweeps: int16 or int8 inputs, int32 sums.
inline kernel mm_typed(const char* name, elem_type in) {
  kernel k(name);
  param I = k.param("I", 8), J = k.param("J", 8), K = k.param("K", 8);
  loop i("i", I), j("j", J), kk("k", K);
  if (in == elem_type::i16) {
    auto A = k.input<int16_t>("A", {I, K});
    auto B = k.input<int16_t>("B", {K, J});
    auto C = k.output<int32_t>("C", {I, J});
    C(i, j) += cast<int32_t>(A(i, kk)) * cast<int32_t>(B(kk, j));
  } else {
    auto A = k.input<int8_t>("A", {I, K});
    auto B = k.input<int8_t>("B", {K, J});
    auto C = k.output<int32_t>("C", {I, J});
    C(i, j) += cast<int32_t>(A(i, kk)) * cast<int32_t>(B(kk, j));
  }
  return k;
}

}  // namespace sadsl::testing
