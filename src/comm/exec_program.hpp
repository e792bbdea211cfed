#pragma once
// A module part's program (program_tree.hpp), translated once into a small tree the executor
// walks: iterators and parameters (t0.. tile coordinates, p0.. module coordinates) live in
// numbered slots, each call carries its block's operations with their expressions compiled the
// same way.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sadsl/comm/architecture.hpp"

namespace sadsl::exec {

// An integer expression of isl's AST as postfix code over a small stack: every loop bound,
// guard and index of every module instance is evaluated for every iteration, so it is a flat
// array (no tree of vectors to chase). `and`, `or` and `select` jump over what they do not
// evaluate, as C does (a guarded division is never reached where its guard is false).
enum class iop : uint8_t {
  constant, slot, add, sub, mul, neg, div, fdiv_q, pdiv_r, min, max, eq, le, lt, ge, gt,
  truth,              // top = (top != 0)
  jump,               // to `target`
  jump_unless_pop,    // pop; jump when it was 0
  keep_jump_unless,   // jump when top is 0 (keeping it), else pop
  keep_jump_if,       // jump when top is not 0 (keeping it), else pop
};

struct iinstr {
  iop op = iop::constant;
  int32_t target = 0;  // slot, or jump target
  int64_t value = 0;
};

// A condition's node (iexpr::condition): a comparison of an affine form with 0, or the
// conjunction or disjunction of the nodes that follow it up to `end` (prefix order, so that a
// decided conjunction or disjunction skips the rest of its operands).
struct cnode {
  enum class kind : uint8_t { compare, all, any };
  kind what = kind::compare;
  iop compare = iop::eq;        // compare: eq, le, lt, ge or gt, of the form against 0
  int64_t constant = 0;         // compare: the form's constant ...
  uint32_t first = 0, last = 0;  // ... and its terms, iexpr::terms[first, last)
  uint32_t end = 0;             // the index past this node's subtree
};

struct iexpr {
  std::vector<iinstr> code;
  int depth = 0;  // the deepest the stack gets
  // Most expressions (indices, bounds) are affine in the slots: then they are evaluated as
  // constant + sum coefficient x slot, not run.
  bool affine = false;
  int64_t constant = 0;
  std::vector<std::pair<int32_t, int64_t>> terms;  // (slot, coefficient), each slot once
  // Most guards are conjunctions and disjunctions of affine comparisons (`c3 == 0 && c7 == 0`,
  // a tile's first or last iteration): then they are evaluated as such (their code was over a
  // third of the executor's instructions). Their forms' terms are in `terms`.
  std::vector<cnode> condition;
};

/// Runs e's code (evaluate() does when e is neither affine nor a condition of affine forms).
int64_t run_code(const iexpr& e, const int64_t* slots);

inline bool holds(const iexpr& e, uint32_t at, const int64_t* slots) {
  const cnode& n = e.condition[at];
  if (n.what == cnode::kind::compare) {
    int64_t v = n.constant;
    for (uint32_t t = n.first; t < n.last; ++t) v += e.terms[t].second * slots[e.terms[t].first];
    switch (n.compare) {
      case iop::eq: return v == 0;
      case iop::le: return v <= 0;
      case iop::lt: return v < 0;
      case iop::ge: return v >= 0;
      default: return v > 0;
    }
  }
  bool all = n.what == cnode::kind::all;
  for (uint32_t c = at + 1; c < n.end; c = e.condition[c].end)
    if (holds(e, c, slots) != all) return !all;
  return all;
}

inline int64_t evaluate(const iexpr& e, const int64_t* slots) {
  if (!e.affine) return e.condition.empty() ? run_code(e, slots) : holds(e, 0, slots);
  int64_t v = e.constant;
  for (auto [slot, c] : e.terms) v += c * slots[slot];
  return v;
}

struct compiled_op {
  operation::kind what = operation::kind::compute;
  int port = -1, buffer = -1, slot = 0;
  int from_statement = -1, from_slot = -1;
  int64_t lanes = 1;
  bool vector = false;
  bool has_lane = false, has_when = false;
  iexpr lane, when;
  std::vector<iexpr> index;
};

struct compiled_block {
  int statement_index = -1;
  std::vector<compiled_op> ops;
};

enum class node_kind { for_loop, if_then, block, user };

struct node {
  node_kind kind = node_kind::block;
  int slot = -1;               // for: the iterator
  loop_kind loop = loop_kind::sequential;  // for: how it runs in hardware (the timed simulation's cost)
  iexpr init, cond, inc;       // for (cond also for if)
  // for: cond is `iterator <= bound` (`<` when strict) with a bound the body cannot change,
  // evaluated once when the loop starts rather than at every iteration.
  bool hoisted = false, strict = false;
  iexpr bound;
  std::vector<node> children;  // for: body = [0]; if: then = [0], else = [1]; block: all
  int block = -1;              // user: index into compiled_part::blocks
  std::vector<iexpr> args;     // user: the statement's coordinates (the tile loops' user node)
};

struct compiled_part {
  std::string name;
  bool previous_tile = false;
  node root;
  std::vector<compiled_block> blocks;
  int slots = 0;
};

/// Slots 0..tiles-1 hold t0.., slots tiles..tiles+coords-1 hold p0..; iterators follow.
compiled_part compile_part(const module_part& part, size_t tiles, size_t coords);
/// The tile loops of a phase (user node args: the tile's coordinates).
compiled_part compile_tiles(const program_node& tiles, size_t n);

}  // namespace sadsl::exec
