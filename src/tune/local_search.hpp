#pragma once
// Internal: the local search genetic-mp applies to its individuals (a memetic step). Sampling
// searches stall where an optimum needs several loops to change together: the PE counts of a
// 2-D array share one DSP budget, so one loop can only take more PEs when another gives some
// up, and the BRAM the new tiles need may have to come from a third loop. The descent makes
// those moves for any model, from evaluations alone:
//
//  1. sweeps: each loop in turn takes the best of all its chains, the other loops held
//     (coordinate descent), until a round changes nothing. Each sweep also records the loop's
//     trade-off front: the chains that no other chain beats both in the objective (as if
//     feasible) and in every resource.
//  2. exchange: every combination of the fronts of two loops, and of three while that stays
//     within 250,000 points in all. Combinations that would win but overrun a resource are kept (the 16
//     with the smallest overrun).
//  3. repair: each kept combination with each of its other loops swept: that loop may give
//     back the resource (a smaller k tile frees the BRAM that more PEs need).
//  4. shifts (optional, the costly step: a front times a whole loop, about 1.5 million
//     evaluations for MM): each front chain of one loop with every chain of another, for moves
//     whose second half only pays once the first has freed or taken resources. Larger spaces
//     take every n-th front chain, to stay near 4 million evaluations.
//
// The first step that improves is taken and the descent starts over; it ends when none does.
// Every evaluation is counted by the tracker (the descent stops exactly at an evaluation budget
// and within 256 evaluations of a time budget) and improvements are offered to it.
#include "tracker.hpp"

namespace sadsl::tune {

struct local_optimum {
  tiling point;
  double cost;
};

/// Descends from `start` (whose cost is `cost`) until no step improves or the budget runs out;
/// returns the best point reached. Deterministic.
local_optimum descend(const design_space& space, tiling start, double cost, tracker& track, bool with_shifts);

}  // namespace sadsl::tune
