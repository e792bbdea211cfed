#pragma once
// Cycles of a module part read off its template program with symbolic loop trips: a whole tile
// (part_cycles' rules), one iteration of each loop, and the span of a PE-side part's tokens.
#include <map>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/part_cycles.hpp"
#include "sadsl/model/expr.hpp"

namespace sadsl::modeling {

using model::expr;

/// Cycles of one tile of a part, by the rules of part_cycles (classify_loop's kinds), with each
/// loop's trip count `dims` at the schedule dimension it iterates.
expr part_cost(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& timing);

/// The cycles one iteration of each loop of a part takes (by schedule dimension): its body's for
/// a sequential loop, II for a pipelined one, 0 for a lane loop or one inside a pipelined loop.
std::map<size_t, expr> loop_strides(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& timing);

/// The cycles from token `from` (counting from 0) to the last token of `side`, a part over the PE
/// frame (a collect or a feed) whose tokens are a box of the frame: its own loops span their whole
/// extent, every other dimension is fixed at its first or its last value. `strides` are the PE's
/// loop_strides, `dims` the frame extents and `at_template` their values at the template point
/// (where every extent is 2 or more, so that first and last differ). sadsl::error when a token is
/// elsewhere.
expr token_span(const module_part& side, const std::map<size_t, expr>& strides, const std::vector<expr>& dims,
                const std::vector<int64_t>& at_template, const pipeline_timing& timing, int64_t from = 0);

}  // namespace sadsl::modeling
