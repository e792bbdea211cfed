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

enum class iop { constant, slot, add, sub, mul, neg, div, fdiv_q, pdiv_r, min, max, land, lor, eq, le, lt, ge, gt, select };

struct iexpr {
  iop op = iop::constant;
  int64_t value = 0;
  int slot = -1;
  std::vector<iexpr> args;
};

int64_t evaluate(const iexpr& e, const int64_t* slots);

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
