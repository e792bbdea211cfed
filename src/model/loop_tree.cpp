#include "sadsl/model/loop_tree.hpp"

namespace sadsl::model {

namespace {
std::shared_ptr<const loop_tree> share(loop_tree t) { return std::make_shared<const loop_tree>(std::move(t)); }

// The usual visitor helper: one lambda per node type.
template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;
}  // namespace

loop_tree make_loop(expr trip, loop_tree body) { return loop_tree(loop_node{std::move(trip), share(std::move(body))}); }
loop_tree make_summation(expr index, expr lo, expr hi, loop_tree body) {
  return loop_tree(summation_node{std::move(index), std::move(lo), std::move(hi), share(std::move(body))});
}
loop_tree make_block(std::vector<loop_tree> children) { return loop_tree(block_node{std::move(children)}); }
loop_tree make_branch(loop_tree then_branch, std::optional<loop_tree> else_branch) {
  return loop_tree(branch_node{share(std::move(then_branch)), else_branch ? share(std::move(*else_branch)) : nullptr});
}
loop_tree make_pipeline(loop_tree body, expr ii, expr depth) {
  return loop_tree(pipeline_node{share(std::move(body)), std::move(ii), std::move(depth)});
}
loop_tree make_transfer(loop_tree inter, loop_tree intra, bool double_buffered) {
  return loop_tree(transfer_node{share(std::move(inter)), share(std::move(intra)), double_buffered});
}
loop_tree make_leaf(expr cost) { return loop_tree(leaf_node{std::move(cost)}); }

expr cost(const loop_tree& tree) {
  return std::visit(
      overloaded{
          [](const loop_node& loop) {
            // Multiply the trip counts of the whole perfect nest first, then the innermost body.
            expr trips = loop.trip;
            const loop_tree* body = loop.body.get();
            while (const auto* inner = std::get_if<loop_node>(&body->get())) {
              trips = trips * inner->trip;
              body = inner->body.get();
            }
            return trips * cost(*body);
          },
          [](const summation_node& s) { return sum(s.index, s.lo, s.hi, cost(*s.body)); },
          [](const block_node& block) {
            if (block.children.empty()) return expr(0.0);
            expr sum = cost(block.children.front());
            for (std::size_t i = 1; i < block.children.size(); ++i) sum = sum + cost(block.children[i]);
            return sum;
          },
          [](const branch_node& branch) { return cost(*branch.then_branch); },
          [](const pipeline_node& pipeline) { return cost(*pipeline.body) * pipeline.ii + pipeline.depth; },
          [](const transfer_node& transfer) {
            expr inter = cost(*transfer.inter);
            expr intra = cost(*transfer.intra);
            return transfer.double_buffered ? max(inter, intra) : inter + intra;
          },
          [](const leaf_node& leaf) { return leaf.cost; },
      },
      tree.get());
}

}  // namespace sadsl::model
