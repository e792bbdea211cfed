#pragma once
// sadsl's own generator of module programs, for the shape nearly every module part has: each
// statement's schedule points are one polyhedron without existential variables in which every
// schedule dimension is fixed to a constant, or bounded by one lower and one upper bound with
// unit coefficient (affine in the outer dimensions and the parameters), or (for a statement
// alone at that point) equal to such a function; the statements are ordered by constant
// schedule dimensions. isl's AST generation takes 2 to 40 ms for such a
// part (most of an architecture's build time); this takes well under one. Anything else, and any
// expression of a block it cannot write exactly (several pieces, existential variables,
// non-unit divisions), makes it give up: isl generates the part (programs.cpp).
//
// Loops are named c<d> after their schedule dimension, as isl names them, and a dimension that
// is fixed for every statement of a group is not a loop (its value appears in the calls). A
// statement fixed at a dimension where others loop runs inside their loop under the guard
// `c<d> == value` (lexicographic order is kept); constraints on parameters only guard the call.
#include <optional>
#include <vector>

#include <isl/cpp.h>

#include "programs.hpp"

namespace sadsl::comm_detail {

/// The program of `schedule` (statement instances -> an unnamed schedule space) in `context`
/// with the blocks of its calls appended to `blocks`, or std::nullopt when isl must generate it.
std::optional<program_node> simple_program(const isl::union_map& schedule, const isl::set& context,
                                           const block_maker& maker, std::vector<op_block>& blocks);

}  // namespace sadsl::comm_detail
