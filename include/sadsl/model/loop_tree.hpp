#pragma once
// The loop-tree form of a module's latency (or of any count over a module's loop nest, such as
// its off-chip accesses): loops multiply, blocks add, I/O transfers overlap when double buffered.
// cost() lowers a tree to one expression.
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "sadsl/model/expr.hpp"

namespace sadsl::model {

class loop_tree;

/// `for (0 <= c < trip) body`: trip x cost(body).
struct loop_node {
  expr trip;
  std::shared_ptr<const loop_tree> body;
};
/// `for (lo <= index <= hi) body` where the body's cost depends on the index (a triangular nest,
/// or the tiles of a loop that differ): the sum of the body's cost over the index, sum().
struct summation_node {
  expr index;  ///< an expr::index()
  expr lo, hi;
  std::shared_ptr<const loop_tree> body;
};
/// Children in sequence: the sum of their costs (0 when empty).
struct block_node {
  std::vector<loop_tree> children;
};
/// `if (...) then else otherwise`: Odyssey charges the first branch (in AutoSA's I/O modules the
/// two branches are the ping and pong halves of a double buffer, which cost the same).
struct branch_node {
  std::shared_ptr<const loop_tree> then_branch;
  std::shared_ptr<const loop_tree> else_branch;  ///< may be null
};
/// An HLS-pipelined region: cost(body) x ii + depth (ii = 1, depth = 0 in Odyssey's model).
struct pipeline_node {
  std::shared_ptr<const loop_tree> body;
  expr ii = 1;
  expr depth = 0;
};
/// A transfer of an I/O module between its outer (inter) and inner (intra) side: with double
/// buffering both run concurrently, max(inter, intra); otherwise one after the other, the sum.
struct transfer_node {
  std::shared_ptr<const loop_tree> inter;
  std::shared_ptr<const loop_tree> intra;
  bool double_buffered = false;
};
/// A leaf with a fixed cost (a statement, or a tile transfer of size / pack cycles).
struct leaf_node {
  expr cost;
};

/// One node of a loop tree. Immutable value type.
class loop_tree {
public:
  using node = std::variant<loop_node, summation_node, block_node, branch_node, pipeline_node, transfer_node, leaf_node>;
  loop_tree(node n) : node_(std::move(n)) {}  // NOLINT(implicit)
  const node& get() const { return node_; }

private:
  node node_;
};

loop_tree make_loop(expr trip, loop_tree body);
loop_tree make_summation(expr index, expr lo, expr hi, loop_tree body);
loop_tree make_block(std::vector<loop_tree> children);
loop_tree make_branch(loop_tree then_branch, std::optional<loop_tree> else_branch);
loop_tree make_pipeline(loop_tree body, expr ii = 1, expr depth = 0);
loop_tree make_transfer(loop_tree inter, loop_tree intra, bool double_buffered);
loop_tree make_leaf(expr cost);

/// The cost of a tree as one expression. A loop nest multiplies its trip counts outermost first
/// and then the body, ((t0 * t1) * t2) * body, which is how Odyssey's generated Python evaluates
/// "t0 * t1 * t2 * body"; block sums are left-associative likewise. A summation is sum() of its
/// body's cost (a closed form where the body is a polynomial in the index).
expr cost(const loop_tree& tree);

}  // namespace sadsl::model
