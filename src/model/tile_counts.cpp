// Tile counts, and the order of products by them (include/sadsl/model/tile_counts.hpp).
#include "sadsl/model/tile_counts.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include "sadsl/error.hpp"

namespace sadsl::model {
namespace {

// The quotient of ceil(a / b), or ceil_div(a, b) itself.
const expr& quotient_of(const expr& e) { return e.kind() == op::ceil ? e.lhs() : e; }

bool is_tile_count(const expr& e, const design_model& model) {
  if (!(e.kind() == op::ceil_div || (e.kind() == op::ceil && e.lhs().kind() == op::div))) return false;
  auto chosen = [&](const expr& x) { return x.kind() == op::parameter && !model.params[x.parameter_index()].inferred; };
  return chosen(quotient_of(e).lhs()) && chosen(quotient_of(e).rhs());
}

// `kind` applied to operands through the smart constructors.
expr rebuilt(const expr& e, const std::vector<expr>& operand) {
  switch (e.kind()) {
    case op::add: return operand[0] + operand[1];
    case op::sub: return operand[0] - operand[1];
    case op::mul: return operand[0] * operand[1];
    case op::div: return operand[0] / operand[1];
    case op::floor_div: return floor_div(operand[0], operand[1]);
    case op::ceil_div: return ceil_div(operand[0], operand[1]);
    case op::min: return min(operand[0], operand[1]);
    case op::max: return max(operand[0], operand[1]);
    case op::ceil: return ceil(operand[0]);
    case op::floor: return floor(operand[0]);
    case op::pow2_divisor: return pow2_divisor(operand[0], operand[1]);
    case op::sum: return sum(expr::index(e.index_id(), e.parameter_name()), operand[0], operand[1], operand[2]);
    case op::maximum: return maximum(expr::index(e.index_id(), e.parameter_name()), operand[0], operand[1], operand[2]);
    case op::constant: case op::parameter: case op::index: break;
  }
  SADSL_INTERNAL_ASSERT(false, "rebuilt() on a leaf");
}

// Rewrites expressions of one model with its integer products' counts in order; subexpressions
// that do not change stay the same nodes (shared as before).
class product_order {
public:
  explicit product_order(std::vector<expr> counts) : counts_(std::move(counts)) {}

  expr operator()(const expr& root) {
    struct frame {
      const expr* e;
      bool expanded = false;
    };
    std::vector<frame> work{{&root}};
    while (!work.empty()) {  // operands first (an explicit stack: chains of any length)
      frame& f = work.back();
      const expr& e = *f.e;
      if (done_.count(e.identity())) {
        work.pop_back();
        continue;
      }
      std::size_t n = operand_count(e.kind());
      if (!f.expanded && n > 0) {
        f.expanded = true;
        for (std::size_t i = n; i-- > 0;) work.push_back({&e.operand(i)});  // invalidates f
        continue;
      }
      done_.emplace(e.identity(), n == 0 ? e : rewritten(e));
      work.pop_back();
    }
    return done_.at(root.identity());
  }

private:
  std::size_t rank(const expr& factor) const {
    for (std::size_t k = 0; k < counts_.size(); ++k)
      if (counts_[k].same_as(factor)) return k;
    return std::numeric_limits<std::size_t>::max();
  }

  bool is_product(const expr& e) const { return e.kind() == op::mul && e.is_integral(); }

  // `e` with its operands rewritten; an integer product with its counts first, in order.
  expr rewritten(const expr& e) {
    std::vector<expr> operand;
    bool same = true;
    for (std::size_t i = 0; i < operand_count(e.kind()); ++i) {
      operand.push_back(done_.at(e.operand(i).identity()));
      same = same && operand.back().identity() == e.operand(i).identity();
    }
    if (is_product(e)) {
      std::vector<expr> factors;  // the chain's factors, rewritten, in their order
      for (const expr& side : {e.lhs(), e.rhs()}) {
        if (is_product(side)) {
          const std::vector<expr>& inner = factors_.at(side.identity());
          factors.insert(factors.end(), inner.begin(), inner.end());
        } else {
          factors.push_back(done_.at(side.identity()));
        }
      }
      factors_.emplace(e.identity(), factors);
      std::vector<std::size_t> order(factors.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(factors[a]) < rank(factors[b]); });
      if (!std::is_sorted(order.begin(), order.end())) {
        expr product = factors[order[0]];
        for (std::size_t i = 1; i < order.size(); ++i) product = product * factors[order[i]];
        return product;
      }
    }
    return same ? e : rebuilt(e, operand);
  }

  std::vector<expr> counts_;
  std::unordered_map<const void*, expr> done_;
  std::unordered_map<const void*, std::vector<expr>> factors_;  // of each integer product: its chain's factors
};

loop_tree rewritten_tree(const loop_tree& tree, product_order& order) {
  auto sub = [&](const std::shared_ptr<const loop_tree>& t) {
    return t ? std::make_shared<const loop_tree>(rewritten_tree(*t, order)) : t;
  };
  return std::visit(
      [&](const auto& n) -> loop_tree::node {
        using node = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<node, loop_node>) return loop_node{order(n.trip), sub(n.body)};
        else if constexpr (std::is_same_v<node, summation_node>) return summation_node{n.index, order(n.lo), order(n.hi), sub(n.body)};
        else if constexpr (std::is_same_v<node, block_node>) {
          block_node b;
          for (const loop_tree& c : n.children) b.children.push_back(rewritten_tree(c, order));
          return b;
        } else if constexpr (std::is_same_v<node, branch_node>) return branch_node{sub(n.then_branch), sub(n.else_branch)};
        else if constexpr (std::is_same_v<node, pipeline_node>) return pipeline_node{sub(n.body), order(n.ii), order(n.depth)};
        else if constexpr (std::is_same_v<node, transfer_node>) return transfer_node{sub(n.inter), sub(n.intra), n.double_buffered};
        else return leaf_node{order(n.cost)};
      },
      tree.get());
}

void rewrite(design_model& model, product_order& order) {
  for (module_latency& m : model.modules) {
    m.main = rewritten_tree(m.main, order);
    if (m.prologue) m.prologue = rewritten_tree(*m.prologue, order);
    if (m.epilogue) m.epilogue = rewritten_tree(*m.epilogue, order);
  }
  for (expr* e : {&model.dsp, &model.bram18k, &model.uram, &model.lut, &model.ff, &model.offchip_bytes}) *e = order(*e);
  for (dram_port& p : model.dram_ports) p.bytes = order(p.bytes);
  for (constraint& c : model.constraints) {
    c.lhs = order(c.lhs);
    c.rhs = order(c.rhs);
  }
  for (parameter& p : model.params) {
    if (p.lower_bound) p.lower_bound = order(*p.lower_bound);
    if (p.upper_bound) p.upper_bound = order(*p.upper_bound);
    if (p.inferred) p.inferred = inference{order(p.inferred->lower), order(p.inferred->upper)};
  }
}

bool same_counts(const std::vector<expr>& a, const std::vector<expr>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const expr& x, const expr& y) { return x.same_as(y); });
}

}  // namespace

std::vector<expr> evaluated_expressions(const design_model& model, const metric_expressions& metrics) {
  std::vector<expr> roots{metrics.latency_prologue, metrics.latency_main, metrics.latency_epilogue, metrics.latency,
                          metrics.dsp, metrics.bram18k, metrics.uram, metrics.lut, metrics.ff, metrics.offchip_bytes};
  for (const constraint& c : model.constraints) roots.insert(roots.end(), {c.lhs, c.rhs});
  for (const parameter& p : model.params)
    if (p.inferred) roots.insert(roots.end(), {p.inferred->lower, p.inferred->upper});
  return roots;
}

std::vector<expr> tile_counts(const design_model& model) {
  std::vector<expr> roots = evaluated_expressions(model, metrics_of(model));
  std::vector<expr> counts;
  std::vector<const expr*> work;
  for (auto r = roots.rbegin(); r != roots.rend(); ++r) work.push_back(&*r);
  std::unordered_map<const void*, bool> seen;
  while (!work.empty()) {  // depth first, left operand first (an explicit stack: chains of any length)
    const expr* e = work.back();
    work.pop_back();
    if (!seen.emplace(e->identity(), true).second) continue;
    if (is_tile_count(*e, model)) {
      if (std::none_of(counts.begin(), counts.end(), [&](const expr& c) { return c.same_as(*e); })) counts.push_back(*e);
      continue;
    }
    for (std::size_t i = operand_count(e->kind()); i-- > 0;) work.push_back(&e->operand(i));
  }
  return counts;
}

std::vector<std::size_t> count_operands(const std::vector<expr>& counts) {
  std::vector<std::size_t> operands;
  for (const expr& c : counts)
    operands.insert(operands.end(), {quotient_of(c).lhs().parameter_index(), quotient_of(c).rhs().parameter_index()});
  return operands;
}

void order_products(design_model& model) {
  std::vector<expr> counts = tile_counts(model);
  for (int round = 0; round < 4 && !counts.empty(); ++round) {
    product_order order(counts);
    rewrite(model, order);
    std::vector<expr> now = tile_counts(model);
    if (same_counts(now, counts)) return;
    counts = std::move(now);
  }
}

}  // namespace sadsl::model
