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

struct iexpr {
  std::vector<iinstr> code;
  int depth = 0;  // the deepest the stack gets
  // Most expressions (indices, bounds) are affine in the slots: then they are evaluated as
  // constant + sum coefficient x slot, not run.
  bool affine = false;
  int64_t constant = 0;
  std::vector<std::pair<int32_t, int64_t>> terms;  // (slot, coefficient), each slot once
};

/// Runs e's code (evaluate() does when e is not affine).
int64_t run_code(const iexpr& e, const int64_t* slots);
inline int64_t evaluate(const iexpr& e, const int64_t* slots) {
  if (!e.affine) return run_code(e, slots);
  int64_t v = e.constant;
  for (auto [slot, c] : e.terms) v += c * slots[slot];
  return v;
}

struct compiled_op {
  operation::kind what = operation::kind::compute;
  int port = -1, buffer = -1, slot = 0;
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
