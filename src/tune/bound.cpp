#include "bound.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <limits>
#include <map>

#include "sadsl/error.hpp"
#include "sadsl/model/interpreter.hpp"

namespace sadsl::tune::detail {

bound_model::bound_model(const design_space& space, const model::expr& goal, std::vector<std::size_t> order,
                         std::function<bool()> stopped)
    : space_(space), stopped_(std::move(stopped)), order_(std::move(order)), position_(space.loops().size()) {
  for (std::size_t p = 0; p < order_.size(); ++p) position_[order_[p]] = p;
  param_loops_.resize(space.model().params.size());
  param_loops_known_.assign(space.model().params.size(), false);
  objective_root_ = relax(goal);
  collect_direct(objective_root_, direct_);
  for (int id : direct_)
    if (nodes_[static_cast<std::size_t>(id)].type == lb_node::kind::monomial) direct_monomials_.push_back(id);
  const model::design_model& m = space.model();
  const model::device_limits& lim = space.limits();
  for (auto [e, limit] : {std::pair{m.dsp, lim.dsp}, std::pair{m.bram18k, lim.bram18k}, std::pair{m.uram, lim.uram}}) {
    start_tree();  // a resource's monomials keep their own ids (and limits)
    int root = relax(e);
    resources_.emplace_back(root, limit);
    build_resource_sum(root, limit);
    std::vector<int> terms;
    collect_direct(root, terms);
    for (int id : terms) {
      if (nodes_[static_cast<std::size_t>(id)].type != lb_node::kind::monomial) continue;
      resource_monomials_.push_back(id);
      resource_monomial_limit_.push_back(limit);
    }
  }
  start_tree();
  build_couplings();
  build_cross_constraints();
}

bound_model::bound_model(const bound_model& relaxed, std::vector<std::size_t> order) : bound_model(relaxed) {
  order_ = std::move(order);
  for (std::size_t p = 0; p < order_.size(); ++p) position_[order_[p]] = p;
  couplings_.clear();
  build_couplings();
}

void bound_model::poll() {
  if (stopped_ && ++polls_ % 64 == 0 && stopped_()) throw interrupted{};
}

void bound_model::build_cross_constraints() {
  for (const model::constraint& c : space_.model().constraints) {
    if (c.relation != model::constraint::kind::at_least && c.relation != model::constraint::kind::at_most) continue;
    std::vector<std::size_t> loops = loops_of(c.lhs);
    for (std::size_t l : loops_of(c.rhs))
      if (std::find(loops.begin(), loops.end(), l) == loops.end()) loops.push_back(l);
    if (loops.size() < 2) continue;  // single-loop constraints are applied to the chains
    try {
      int lhs = relax(c.lhs), rhs = relax(c.rhs);
      if (nodes_[static_cast<std::size_t>(lhs)].type != lb_node::kind::monomial ||
          nodes_[static_cast<std::size_t>(rhs)].type != lb_node::kind::monomial)
        continue;
      cross_constraints_.push_back({lhs, rhs, c.relation == model::constraint::kind::at_least});
    } catch (const error&) {
      // not expressible as monomials: the model checks it at evaluation
    }
  }
}

std::vector<bool> bound_model::legal_chains(std::size_t loop) {
  const model::design_model& m = space_.model();
  auto only_this_loop = [&](const model::expr& e) {
    std::vector<std::size_t> loops = loops_of(e);
    return loops.empty() || (loops.size() == 1 && loops[0] == loop);
  };
  std::vector<const model::constraint*> local;
  for (const model::constraint& c : m.constraints)
    if (only_this_loop(c.lhs) && only_this_loop(c.rhs)) local.push_back(&c);
  std::vector<std::size_t> inferred;
  for (std::size_t p = 0; p < m.params.size(); ++p)
    if (m.params[p].inferred && only_this_loop(model::expr::parameter(p, m.params[p].name))) inferred.push_back(p);
  const tiled_loop& tl = space_.loops()[loop];
  std::size_t levels = tl.levels.size();
  std::vector<double> params = space_.parameters(space_.smallest());
  std::vector<bool> legal(space_.loop_chain_count(loop), true);
  for (std::size_t c = 0; c < legal.size(); ++c) {
    for (std::size_t level = 0; level < levels; ++level) params[tl.levels[level]] = static_cast<double>(space_.loop_chains(loop)[c * levels + level]);
    for (std::size_t p : inferred) {
      double lower = model::evaluate(m.params[p].inferred->lower, params);
      double upper = model::evaluate(m.params[p].inferred->upper, params);
      legal[c] = legal[c] && lower >= 1 && upper >= lower && model::divides_exactly(lower, upper);
      params[p] = upper;
    }
    for (const model::constraint* k : local) {
      double lhs = model::evaluate(k->lhs, params);
      switch (k->relation) {
        case model::constraint::kind::at_least: legal[c] = legal[c] && lhs >= model::evaluate(k->rhs, params); break;
        case model::constraint::kind::at_most: legal[c] = legal[c] && lhs <= model::evaluate(k->rhs, params); break;
        case model::constraint::kind::power_of_two: legal[c] = legal[c] && model::is_power_of_two(lhs); break;
        case model::constraint::kind::divides: legal[c] = legal[c] && model::divides_exactly(lhs, model::evaluate(k->rhs, params)); break;
      }
    }
  }
  return legal;
}

double bound_model::resource_limit(int monomial) const {
  auto found = std::find(resource_monomials_.begin(), resource_monomials_.end(), monomial);
  return resource_monomial_limit_[static_cast<std::size_t>(found - resource_monomials_.begin())];
}

// The loops an expression depends on; inferred parameters depend on what they are inferred from.
std::vector<std::size_t> bound_model::loops_of(const model::expr& e) {
  std::vector<std::size_t> loops;
  auto merge = [&](const std::vector<std::size_t>& more) {
    for (std::size_t l : more)
      if (std::find(loops.begin(), loops.end(), l) == loops.end()) loops.push_back(l);
  };
  if (e.kind() == model::op::constant || e.kind() == model::op::index) return loops;
  if (e.kind() != model::op::parameter) {
    // relax() asks at every level of an expression: remember each node's answer.
    if (auto known = expr_loops_.find(e.identity()); known != expr_loops_.end()) return known->second.second;
    for (std::size_t i = 0; i < model::operand_count(e.kind()); ++i) merge(loops_of(e.operand(i)));
    expr_loops_.emplace(e.identity(), std::pair{e, loops});
    return loops;
  }
  std::size_t p = e.parameter_index();
  if (param_loops_known_[p]) return param_loops_[p];
  const model::parameter& param = space_.model().params[p];
  for (std::size_t l = 0; l < space_.loops().size(); ++l) {
    const auto& levels = space_.loops()[l].levels;
    if (std::find(levels.begin(), levels.end(), p) != levels.end()) merge({l});
  }
  if (param.inferred) {
    merge(loops_of(param.inferred->lower));
    merge(loops_of(param.inferred->upper));
  }
  param_loops_[p] = loops;
  param_loops_known_[p] = true;
  return loops;
}

int bound_model::add_node(lb_node n) {
  auto [at, fresh] = alike_.emplace(std::make_tuple(n.type, n.coefficient, n.factors, n.children), static_cast<int>(nodes_.size()));
  if (!fresh) return at->second;
  nodes_.push_back(std::move(n));
  return static_cast<int>(nodes_.size()) - 1;
}

int bound_model::constant(double value) {
  if (!(value >= 0) || !std::isfinite(value))
    throw error("exact search: design \"" + space_.name() + "\" has a term that is negative or not finite");
  lb_node n;
  n.coefficient = value;
  n.factors.assign(space_.loops().size(), -1);
  return add_node(std::move(n));
}

int bound_model::monomial_of(const model::expr& e, std::size_t loop) {
  lb_node n;
  n.factors.assign(space_.loops().size(), -1);
  n.factors[loop] = table_for(e, loop);
  return add_node(std::move(n));
}

int bound_model::combine(lb_node::kind kind, int a, int b) {
  lb_node n;
  n.type = kind;
  for (int child : {a, b}) {
    const lb_node& c = nodes_[static_cast<std::size_t>(child)];
    if (c.type == kind && kind != lb_node::kind::ceil && kind != lb_node::kind::floor) n.children.insert(n.children.end(), c.children.begin(), c.children.end());
    else n.children.push_back(child);
  }
  merge_like_monomials(n);
  return add_node(std::move(n));
}

// Monomials with the same tables differ only in their coefficient c: in a sum their bounds add up
// to (c1 + c2) x the same product, in a max the larger c wins (every value is non-negative), so
// each such group is one monomial. The latency of a design with many phases (each a max over
// modules, times its count) is thousands of monomials over a few dozen distinct tables: with
// this and add_node's sharing of alike subtrees, a CNN design's bound is about 130 distinct
// nodes instead of 6,400 (its exact search 2.5x faster).
void bound_model::merge_like_monomials(lb_node& n) {
  if (n.type != lb_node::kind::sum && n.type != lb_node::kind::max) return;
  std::map<std::vector<int>, std::size_t> first;  // factors -> position among the kept children
  std::vector<int> kept;
  for (int child : n.children) {
    const lb_node& c = nodes_[static_cast<std::size_t>(child)];
    if (c.type != lb_node::kind::monomial) {
      kept.push_back(child);
      continue;
    }
    auto [at, fresh] = first.emplace(c.factors, kept.size());
    if (fresh) {
      kept.push_back(child);
      continue;
    }
    lb_node merged = nodes_[static_cast<std::size_t>(kept[at->second])];
    merged.coefficient = n.type == lb_node::kind::sum ? merged.coefficient + c.coefficient : std::max(merged.coefficient, c.coefficient);
    kept[at->second] = add_node(std::move(merged));
  }
  n.children = std::move(kept);
}

// Products of non-negative values: monomials merge (their tables multiply element by element), a
// monomial distributes over sum, max and min; anything else becomes a product node.
int bound_model::multiply(int a, int b) {
  lb_node A = nodes_[static_cast<std::size_t>(a)], B = nodes_[static_cast<std::size_t>(b)];
  using k = lb_node::kind;
  if (A.type == k::monomial && B.type == k::monomial) {
    lb_node n;
    n.coefficient = A.coefficient * B.coefficient;
    n.factors = A.factors;
    for (std::size_t l = 0; l < n.factors.size(); ++l) {
      if (B.factors[l] < 0) continue;
      if (n.factors[l] < 0) {
        n.factors[l] = B.factors[l];
        continue;
      }
      std::vector<double> product = tables_[static_cast<std::size_t>(n.factors[l])];
      const std::vector<double>& other = tables_[static_cast<std::size_t>(B.factors[l])];
      for (std::size_t c = 0; c < product.size(); ++c) product[c] *= other[c];
      n.factors[l] = add_table(std::move(product));
    }
    return add_node(std::move(n));
  }
  if (B.type == k::monomial) std::swap(a, b), std::swap(A, B);
  bool distributes = B.type == k::sum || B.type == k::max || B.type == k::min;
  if (A.type == k::monomial && distributes) {
    lb_node n;
    n.type = B.type;
    for (int child : B.children) n.children.push_back(multiply(a, child));
    merge_like_monomials(n);
    return add_node(std::move(n));
  }
  int product = combine(k::product, a, b);
  if (A.type != k::monomial) return product;
  // Also bound it by the monomial times the least value of the other factor (ceil(x) >= 1 for a
  // buffer of any size): a monomial takes part in the resource couplings and the fast leaf checks.
  double least = evaluate(b, node_state{0, nullptr});
  if (!(least > 0) || !std::isfinite(least)) return product;
  return combine(k::max, product, multiply(a, constant(least)));
}

void bound_model::start_tree() {
  alike_.clear();
  relaxed_.clear();
}

// The models' expressions share their subtrees (a phase's start appears in every step after
// it): each is relaxed once per tree, which gives the node that relaxing it again would give.
int bound_model::relax(const model::expr& e) {
  poll();
  if (auto known = relaxed_.find(e.identity()); known != relaxed_.end()) return known->second.second;
  int id = relax_uncached(e);
  relaxed_.emplace(e.identity(), std::pair{e, id});
  return id;
}

int bound_model::relax_uncached(const model::expr& e) {
  using model::op;
  std::vector<std::size_t> loops = loops_of(e);
  if (loops.empty()) return constant(model::evaluate(e, space_.parameters(space_.smallest())));
  if (loops.size() == 1) return monomial_of(e, loops[0]);
  switch (e.kind()) {
    case op::add: return combine(lb_node::kind::sum, relax(e.lhs()), relax(e.rhs()));
    case op::mul: return multiply(relax(e.lhs()), relax(e.rhs()));
    case op::max: {
      // max(k, a - c) >= max(k, lower(a) - c) when k >= 0: clamping at 0 loses nothing.
      auto loop_free = [&](const model::expr& x) { return loops_of(x).empty(); };
      for (auto [k, d] : {std::pair{e.lhs(), e.rhs()}, std::pair{e.rhs(), e.lhs()}})
        if (loop_free(k) && d.kind() == op::sub)
          if (int bounded = excess(d); bounded >= 0) return combine(lb_node::kind::max, relax(k), bounded);
      // max(a, b) >= a: a side that cannot be bounded (a staggered drain's send, the whole send
      // less the PE groups' spread) leaves the other.
      std::optional<int> lhs = relax_or_none(e.lhs()), rhs = relax_or_none(e.rhs());
      if (!lhs || !rhs) {
        if (lhs || rhs) return lhs ? *lhs : *rhs;
        return relax(e.lhs());  // neither: says why
      }
      return combine(lb_node::kind::max, *lhs, *rhs);
    }
    case op::min: return combine(lb_node::kind::min, relax(e.lhs()), relax(e.rhs()));
    case op::ceil: {
      lb_node n{lb_node::kind::ceil, 1, {}, {relax(e.lhs())}};
      return add_node(std::move(n));
    }
    case op::floor: {
      lb_node n{lb_node::kind::floor, 1, {}, {relax(e.lhs())}};
      return add_node(std::move(n));
    }
    case op::sub: {
      // a - b (a tile count less one): when a >= upper(b) over the whole space, the difference is
      // non-negative and max(0, lower(a) - upper(b)) bounds it.
      int bounded = excess(e);
      if (bounded < 0) break;
      const lb_node& n = nodes_[static_cast<std::size_t>(bounded)];
      if (evaluate(n.children[0], node_state{0, nullptr}) >= n.coefficient) return bounded;
      break;
    }
    // A packing over several loops is at least 1 (1 / packing: the division's upper(), its cap).
    case op::pow2_divisor: return constant(1);
    case op::ceil_div: return relax(model::ceil(e.lhs() / e.rhs()));
    case op::floor_div: return relax(model::floor(e.lhs() / e.rhs()));
    // A summation over tiles of several loops (a triangular nest): its terms are model values,
    // non-negative, so 0 bounds it. Weak, but the search stays exact.
    case op::sum: return constant(0);
    // The largest of 0 and its terms: 0 bounds it.
    case op::maximum: return constant(0);
    case op::div: {
      const model::expr& a = e.lhs();
      const model::expr& b = e.rhs();
      std::vector<std::size_t> below = loops_of(b);
      if (below.size() <= 1) return multiply(relax(a), relax(model::expr(1.0) / b));
      if (b.kind() == op::mul) return relax(a / b.lhs() / b.rhs());
      if (b.kind() == op::div) return relax(a * b.rhs() / b.lhs());
      if (b.kind() == op::min) return combine(lb_node::kind::max, relax(a / b.lhs()), relax(a / b.rhs()));
      if (b.kind() == op::max) return combine(lb_node::kind::min, relax(a / b.lhs()), relax(a / b.rhs()));
      if (double most = upper(b); most > 0 && std::isfinite(most)) return multiply(relax(a), constant(1 / most));
      break;
    }
    default: break;
  }
  throw error("exact search cannot bound \"" + model::to_string(e) + "\" of design \"" + space_.name() +
              "\" (a difference or quotient of terms over several loops)");
}

std::optional<int> bound_model::relax_or_none(const model::expr& e) {
  // A model's expressions share their nodes: an unbounded one is met again and again, and the
  // error's text (the whole expression) costs as much as the relaxation.
  if (unboundable_.count(e.identity()) > 0) return std::nullopt;
  try {
    return relax(e);
  } catch (const error&) {
    unboundable_.emplace(e.identity(), e);
    return std::nullopt;
  }
}

int bound_model::excess(const model::expr& e) {
  lb_node n;
  n.type = lb_node::kind::excess;
  n.coefficient = upper(e.rhs());
  if (!std::isfinite(n.coefficient)) return -1;
  n.children.push_back(relax(e.lhs()));
  return add_node(std::move(n));
}

double bound_model::lowest(const model::expr& e) {
  if (loops_of(e).empty()) return model::evaluate(e, space_.parameters(space_.smallest()));
  try {
    return evaluate(relax(e), node_state{0, nullptr});
  } catch (const error&) {
    return 0;  // every model value is non-negative
  }
}

double bound_model::upper(const model::expr& e) {
  using model::op;
  std::vector<std::size_t> loops = loops_of(e);
  double nowhere = std::numeric_limits<double>::infinity();
  if (loops.empty()) return model::evaluate(e, space_.parameters(space_.smallest()));
  if (loops.size() == 1) {
    const std::vector<double>& t = tables_[static_cast<std::size_t>(table_for(e, loops[0]))];
    return *std::max_element(t.begin(), t.end());
  }
  switch (e.kind()) {
    case op::add: return upper(e.lhs()) + upper(e.rhs());
    case op::mul: return upper(e.lhs()) * upper(e.rhs());
    case op::max: return std::max(upper(e.lhs()), upper(e.rhs()));
    case op::min: return std::min(upper(e.lhs()), upper(e.rhs()));
    case op::ceil: return std::ceil(upper(e.lhs()));
    case op::floor: return std::floor(upper(e.lhs()));
    case op::sub: return upper(e.lhs()) - lowest(e.rhs());
    case op::div:
    case op::floor_div:
    case op::ceil_div: {
      double below = lowest(e.rhs());
      if (!(below > 0)) return nowhere;
      double q = upper(e.lhs()) / below;
      return e.kind() == op::floor_div ? std::floor(q) : e.kind() == op::ceil_div ? std::ceil(q) : q;
    }
    case op::pow2_divisor: return upper(e.rhs());
    default: return nowhere;  // no bound: the caller reports the term
  }
}

// A summand that is a max of alternatives contributes its strongest monomial alternative.
void bound_model::build_resource_sum(int root, double limit) {
  const lb_node& n = nodes_[static_cast<std::size_t>(root)];
  if (n.type != lb_node::kind::sum) return;
  resource_sum sum{resource_sum_terms_.size(), 0, limit};
  for (int child : n.children) {
    const lb_node& c = nodes_[static_cast<std::size_t>(child)];
    int pick = c.type == lb_node::kind::monomial ? child : -1;
    double strongest = -1;
    if (c.type == lb_node::kind::max)
      for (int alternative : c.children) {
        if (nodes_[static_cast<std::size_t>(alternative)].type != lb_node::kind::monomial) continue;
        double b = evaluate(alternative, node_state{0, nullptr});
        if (b > strongest) pick = alternative, strongest = b;
      }
    if (pick < 0) continue;  // dropping a summand keeps the sum a lower bound
    resource_sum_terms_.push_back(pick);
    ++sum.count;
  }
  if (sum.count > 0) resource_sums_.push_back(sum);
}

void bound_model::collect_direct(int id, std::vector<int>& out) const {
  const lb_node& n = nodes_[static_cast<std::size_t>(id)];
  if (n.type == lb_node::kind::sum || n.type == lb_node::kind::max || n.type == lb_node::kind::ceil) {
    for (int child : n.children) collect_direct(child, out);
    return;
  }
  out.push_back(id);
}

}  // namespace sadsl::tune::detail
