#pragma once
// The number of integer points of a parametric set as a model expression: the counting a model
// of guarded designs needs, where a tile's instances, words and trips depend on where the tile
// stands (a triangular nest's diagonal tiles, the partial tiles at a loop's end). The set's
// parameters stand for the tile's origin and extents and the problem sizes; the caller binds
// each to its expression (a tile origin to factor x tile index, summed over the tiles).
#include <cstddef>
#include <vector>

#include <isl/cpp.h>

#include "sadsl/model/expr.hpp"

namespace sadsl::modeling {

using model::expr;

/// The number of integer points of `s` as an expression of its parameters, exact for every value
/// of them for which `s` is bounded: isl's AST of the set read as nested sums (model::sum, closed
/// where a body is a polynomial of its index, or splits into polynomial pieces where the index
/// passes the other operand of a minimum or maximum), its guards as 0/1 factors. `params` gives the
/// expression of each parameter of `s`, by position. The sums' indices are numbered from
/// `next_index`, which is advanced past them (a model numbers all its indices apart).
/// sadsl::error when `s` is unbounded for some parameter values isl cannot rule out.
expr point_count(const isl::set& s, const std::vector<expr>& params, std::size_t& next_index);

}  // namespace sadsl::modeling
