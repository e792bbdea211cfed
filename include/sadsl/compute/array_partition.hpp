#pragma once
// Array partitioning (paper 002 section 5.2, paper 001 sections 2.3 and 3.2): strip-mine every
// band loop by a first-level factor x_t1 (any positive integer: a non-divisor pads the loop to
// ceil(X / x_t1) * x_t1) and order the tile loops. Only the non-dominated orders of Odyssey's
// Theorem 3.1 are enumerated: for each tensor with a flow or read dependence, the loops carrying it
// innermost. MM: <[i,j],k> (C), <[j,k],i> (B), <[i,k],j> (A).
#include <vector>

#include "sadsl/compute/design.hpp"

namespace sadsl {

/// A tile-loop order: the outer loops (a set, in band order) and the innermost ones that carry
/// one tensor's reuse.
struct tile_order {
  std::vector<loop_id> outer, inner;
  std::vector<loop_id> loops() const;  // outer then inner
};

/// The non-dominated tile-loop orders of a design's band: flow-dependence tensors first, then
/// read-only tensors by the position of their reuse loops.
std::vector<tile_order> tile_orders(const design& d);

/// Adds the first-level factors x_t1 and the tile-loop order (a permutation of the band loops).
design_or_reason array_partition(const design& d, const tile_order& order);

}  // namespace sadsl
