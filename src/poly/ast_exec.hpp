#pragma once
// isl's AST of a schedule, translated once into a small tree the interpreter walks: loops keep
// their iterators in numbered slots, params are already replaced by their values.
#include <isl/cpp.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sadsl::ast_exec {

enum class int_op { constant, slot, add, sub, mul, neg, div, fdiv_q, pdiv_q, pdiv_r, zdiv_r, min, max,
                    land, lor, eq, le, lt, ge, gt, select,
                    affine };  // value + sum coefficient x slot (a translated sum of products by constants)

struct int_expr {
  int_op op = int_op::constant;
  int64_t value = 0;  // constant; affine: the constant term
  int slot = -1;      // slot
  std::vector<int_expr> args;
  std::vector<std::pair<int, int64_t>> terms;  // affine: (slot, coefficient), each slot once
};

int64_t evaluate(const int_expr& e, const std::vector<int64_t>& slots);

enum class node_kind { for_loop, if_then, block, call };

struct node {
  node_kind kind;
  int slot = -1;               // for_loop: the iterator
  int_expr init, cond, inc;    // for_loop (cond also for if_then)
  std::vector<node> children;  // block; for_loop body = children[0]; if_then: then = [0], else = [1]
  int statement = -1;          // call: index into the statement table
  std::vector<int_expr> args;  // call: the statement's domain coordinates
};

struct tree {
  node root;
  int slots = 0;
  std::vector<std::string> slot_names;  // isl's iterator names (c0, c1, ...)
};

/// Where a call executes: the iterators of its enclosing loops (valid during the call only).
struct call_site {
  const tree* t;
  const std::vector<int>* loops;  // slots, outermost first
  const std::vector<int64_t>* slots;
  /// "c0 = 5, c1 = 2, c3 = 1"
  std::string str() const;
};

using call_fn = std::function<void(int statement, const int64_t* coordinates, const call_site& where)>;

/// Generates isl's AST for `schedule` where the params satisfy `context` (the program's, or fixed
/// values), then translates it with the params replaced by their values in `params`.
/// `statement_index` maps a statement name to its index (throws for unknown names).
tree translate(const isl::schedule& schedule, const isl::set& context,
               const std::map<std::string, int64_t>& params,
               const std::function<int(const std::string&)>& statement_index);

/// Walks the tree, calling `call(statement, coordinates, where)` for every statement instance in
/// order.
void execute(const tree& t, const call_fn& call);

}  // namespace sadsl::ast_exec
