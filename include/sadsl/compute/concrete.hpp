#pragma once
// A design bound to concrete tiling factors: the isl schedule the interpreter (and code
// generation) runs. Its dimensions, outermost first: the tile loops in the design's order, the
// space loops, the time loops (the outer parts of the remaining band loops), the latency-hiding
// loops, the SIMD loop, then the original schedule, which orders what the band does not (inner
// loops, statements at one band point). A first-level factor that does not divide its loop
// leaves a partial last tile: no instance outside the kernel's domain is ever executed.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>
#include <string>

#include "sadsl/compute/design.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl {

/// Checks a value for every factor of the design against its relations (>= 1, divides its
/// parent, power of two, lane limit); sadsl::error naming the factor. First-level factors may
/// exceed their loop's extent (one partial tile).
void check_factors(const design& d, const design_point& values);

/// The design's schedule for concrete factor values (checked first).
isl::schedule concrete_schedule(const design& d, const design_point& values);
/// The same with values by factor name: `concrete_schedule(d, {{"i_t1", 12}, ...})`.
isl::schedule concrete_schedule(const design& d, const factor_values& values);

/// A statement's design dimensions at a point, as affine functions of its instance: the tile
/// loops (tile order), the PE coordinates (the space loops' outer points, space order), the time
/// loops (the other band loops' outer points, band order), the latency-hiding points (d.latency
/// order) and the SIMD lane. concrete_schedule orders them as listed, then the original schedule.
struct design_dims {
  std::vector<isl::aff> tile, space, time, latency;
  std::optional<isl::aff> simd;
};
/// The design dimensions of statement s (the design must be partitioned; values are checked).
design_dims design_dimensions(const design& d, const design_point& values, const statement_info& s);

/// The host-side layouts of the design, for the interpreter.
std::vector<stored_layout> stored_layouts(const design& d);

/// Loop extents padded to whole tiles: ceil(X / x_t1) * x_t1 for every band loop with constant
/// extent at the current param values (the problem size a padded hardware design computes).
std::map<loop_id, int64_t> padded_extents(const design& d, const design_point& values);

}  // namespace sadsl
