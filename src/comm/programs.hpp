#pragma once
// Building module programs: an isl AST per module part, generated from a schedule of the part's
// statement instances, whose user nodes are annotated with their operations. Guards and indices
// are isl sets and functions over the statement instances; at each user node they become AST
// expressions over the loop iterators (PPCG's technique: pull them back through the inverse of
// the schedule the node's build has at that point).
#include <isl/ast.h>
#include <isl/ast_build.h>

#include <functional>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "sadsl/comm/architecture.hpp"

namespace sadsl::comm_detail {

/// Turns sets and functions over one statement's schedule points into expressions over the
/// iterators: sadsl's own generator's (loop_generator.cpp) in place of isl's AST build.
class expression_maker {
public:
  virtual ~expression_maker() = default;
  virtual isl::ast_expr condition(const isl::set& on_schedule) const = 0;
  virtual isl::ast_expr value(const isl::pw_aff& on_schedule) const = 0;
};

/// At one call of a statement: turns sets and functions of the statement's instances into AST
/// expressions over the iterators around the call.
class node_context {
public:
  /// At a user node isl generates.
  node_context(isl_ast_build* build, isl::pw_multi_aff iterators) : build_(build), iterators_(std::move(iterators)) {}
  /// At a call sadsl's own generator makes.
  node_context(const expression_maker* own, isl::pw_multi_aff iterators) : own_(own), iterators_(std::move(iterators)) {}
  /// An expression that holds exactly for the instances in s (s over the statement's space).
  isl::ast_expr condition(const isl::set& s) const;
  /// The value of f (a function of the statement's instance).
  isl::ast_expr value(const isl::pw_aff& f) const;
  /// Each output of f.
  std::vector<isl::ast_expr> values(const isl::pw_multi_aff& f) const;

private:
  isl_ast_build* build_ = nullptr;
  const expression_maker* own_ = nullptr;
  isl::pw_multi_aff iterators_;  // schedule point -> instance
};

/// Makes the operations of the user node for statement `tuple`.
using block_maker = std::function<op_block(const std::string& tuple, const node_context& at)>;

/// Where isl makes a part's program, how its loops are shaped: as isl likes (a statement's
/// instances may be split over several loops), or atomic (each statement in one loop of each
/// dimension, with guards inside).
enum class isl_loops { as_isl_likes, atomic };

/// A part: its program from `schedule` (instances -> schedule space) in `context` (the part's
/// parameters and their ranges), each call with the index of its block. sadsl's own generator
/// (loop_generator.hpp) makes it when it can, isl otherwise (with `loops`), or always when `isl_only`.
module_part make_part(std::string name, bool previous_tile, const isl::union_map& schedule, const isl::set& context,
                      const block_maker& blocks, bool isl_only = false, isl_loops loops = isl_loops::as_isl_likes);

/// A parameter space: the kernel's params (of `params`) plus t0..t{tiles-1} and p0..p{coords-1}.
isl::space part_params(const isl::set& params, size_t tiles, size_t coords);

}  // namespace sadsl::comm_detail
