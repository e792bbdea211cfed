#pragma once
// Internal: the moves of the heuristic searches on tilings: random points, Odyssey's hybrid
// mutation (factorization-based with probability alpha, else random) and crossover per loop.
#include "random.hpp"
#include "sadsl/tune/design_space.hpp"

namespace sadsl::tune {

/// A uniformly random chain per loop, level by level (Odyssey's random_sampling).
tiling random_tiling(const design_space& space, rng& random);

/// Odyssey's hybrid mutation of one loop's extents (ceil(N/t1), t1/t2, ..., innermost factor):
/// with probability alpha divide one extent by a divisor and multiply another by it
/// (factorization), else set one extent to a random s in [1, extent] and the other to
/// ceil(extent x other / s) (random, which reaches non-divisor tiles). The result is repaired.
tiling mutate(const design_space& space, const tiling& t, double alpha, rng& random);

/// Each loop's chain from one parent or the other (crossover per original loop keeps each
/// chain's relations intact).
tiling crossover(const design_space& space, const tiling& a, const tiling& b, rng& random);

}  // namespace sadsl::tune
