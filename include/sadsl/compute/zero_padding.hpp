#pragma once
// Whether a design's partial tiles can be padded with zeros (comm/padding.hpp says what the two
// ways of running a partial tile are). The answer depends on the band and the statements, not on
// the point: compute asks it before SIMD, whose lanes need whole vectors (a guarded design has
// none), comm when it plans the padding of an architecture.
//
// Zero padding is valid when no padded iteration can change a real output: each band loop runs
// over [0, P) for a param P (raised to the padded size), and every statement is the implicit
// initialization or a += / -= of a product in which each reduction loop indexes a factor exactly
// (so a padded reduction iteration adds a padded zero) and each other loop indexes the result
// exactly (so it writes a cropped element).
//
// Loops that share a param (square MM: i, j, k over N) raise it to the largest of their padded
// sizes, and each runs to its own (MM: the instances are a box of the kernel at the raised size)
// when that keeps every dependence's source with its sink: constant, non-negative distances, and
// no statement but the initialization lacks a band loop (pads_apart). Otherwise they must pad it
// alike: a point whose factors pad it to different sizes runs guarded (comm/padding.hpp), and the
// design's performance model leaves such points out of the tuner's space.
#include <string>
#include <utility>
#include <vector>

#include "sadsl/compute/design.hpp"

namespace sadsl {

struct zero_padding {
  /// Why the design's partial tiles must be guarded ("" when they can be padded with zeros).
  std::string why_not;
  /// Each band loop and the param it runs to (when they can be padded); loops may share one.
  std::vector<std::pair<const detail::symbol_node*, const detail::symbol_node*>> loop_params;
  /// Whether loops that share a param may pad it to different sizes, each running to its own.
  bool pads_apart = false;
  /// Whether, guarded or not, every band loop runs over [0, P) for a param P and no loop below
  /// the band has bounds that depend on a band loop: then at a point whose first-level factors
  /// divide their params every tile is whole and of one shape, and a guarded design runs there as
  /// a padded one would (its performance model covers those points: modeling/performance_model).
  bool whole_tiles_at_divisors = false;

  bool valid() const { return why_not.empty(); }
};

/// Whether design d's partial tiles can be padded with zeros.
zero_padding check_zero_padding(const design& d);

}  // namespace sadsl
