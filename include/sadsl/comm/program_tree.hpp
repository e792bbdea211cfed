#pragma once
// A module part's program as a tree: loops, guards, sequences and statement calls, whose
// expressions are isl AST expressions over the loop iterators and the part's parameters (the
// module's coordinates p0.., the tile's coordinates t0..). isl's AST generator builds it today
// (src/comm/programs.cpp converts its AST); the architecture's readers (HLS code generation, the
// executor, the timed simulation, the performance models) walk this tree only, so a program can
// come from another generator without them noticing.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <isl/cpp.h>

namespace sadsl {

struct program_node {
  enum class kind { loop, guard, sequence, call };
  kind what = kind::sequence;
  /// loop: `for (iterator = init; cond; iterator += inc) body[0]`.
  std::string iterator;
  std::optional<isl::ast_expr> init, inc;
  /// loop: whether the iterator continues; guard: `if (cond) body[0] else body[1]` (the else
  /// branch is optional).
  std::optional<isl::ast_expr> cond;
  /// loop: one node; guard: then and optional else; sequence: the nodes in order; call: none.
  std::vector<program_node> body;
  /// call: the statement and its instance, `S1(c0, c1, 0)` (the first argument of the call
  /// expression names the statement, the others are its instance's coordinates), and the index
  /// of its operations in module_part::blocks (-1: a statement without operations).
  std::optional<isl::ast_expr> call;
  int block = -1;
};

/// The program of an isl AST. A user node annotated by the architecture builder (an isl id named
/// "block" whose user pointer is the block's number plus one) calls that block; others call none.
program_node program_from_isl(const isl::ast_node& root);

/// Whether some identifier in `e` (a loop iterator or a parameter, by name) satisfies `named`;
/// `e` is only read.
bool mentions_id(isl_ast_expr* e, const std::function<bool(const char*)>& named);

/// C-like text of a program in the layout of isl's C printer, two spaces per level
/// (architecture dumps, debugging).
std::string program_text(const program_node& n);

}  // namespace sadsl
