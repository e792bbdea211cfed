// Evaluation of the lower-bound trees at a search node, and the resource couplings of free loops.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "bound.hpp"

namespace sadsl::tune::detail {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::size_t frontier_cap = std::size_t{1} << 20;

bool integral(const std::vector<pair_hg>& points) {
  return std::all_of(points.begin(), points.end(), [](const pair_hg& p) { return p.h >= 0 && std::floor(p.h) == p.h; });
}

// Resource factors are usually small integers (PEs, SIMD lanes): then the least objective factor
// per resource value is kept in an array indexed by it instead of sorting the points (often
// 10^5 chains or products), when the array is not much longer than the points are many.
bool use_array(double largest, std::size_t points) {
  constexpr double cap = double{std::size_t{1} << 20};
  return largest < cap && largest < 16.0 * static_cast<double>(points) + 1024.0;
}

// The front of an array of least objective factors per integer resource value.
std::vector<pair_hg> front_of_least(const std::vector<double>& least) {
  std::vector<pair_hg> kept;
  for (std::size_t h = 0; h < least.size(); ++h)
    if (least[h] < (kept.empty() ? infinity : kept.back().g)) kept.push_back({static_cast<double>(h), least[h]});
  return kept;
}

// Keeps the points no other point beats in both resource and factor: ascending h, descending g.
std::vector<pair_hg> pareto(std::vector<pair_hg> points) {
  double largest = 0;
  for (const pair_hg& p : points) largest = std::max(largest, p.h);
  if (use_array(largest, points.size()) && integral(points)) {
    std::vector<double> least(static_cast<std::size_t>(largest) + 1, infinity);
    for (const pair_hg& p : points) least[static_cast<std::size_t>(p.h)] = std::min(least[static_cast<std::size_t>(p.h)], p.g);
    return front_of_least(least);
  }
  std::sort(points.begin(), points.end(), [](const pair_hg& a, const pair_hg& b) { return a.h < b.h || (a.h == b.h && a.g < b.g); });
  std::vector<pair_hg> kept;
  for (const pair_hg& p : points)
    if (kept.empty() || p.g < kept.back().g) kept.push_back(p);
  return kept;
}

// The front of the products of two fronts' points within `max_budget` (by the array when the
// factors are integers).
std::vector<pair_hg> product_front(const std::vector<pair_hg>& a, const std::vector<pair_hg>& b, double max_budget) {
  double largest = std::min(max_budget, a.empty() || b.empty() ? 0.0 : a.back().h * b.back().h);
  if (use_array(largest, a.size() * b.size()) && integral(a) && integral(b)) {
    std::vector<double> least(static_cast<std::size_t>(std::max(0.0, largest)) + 1, infinity);
    for (const pair_hg& x : a)
      for (const pair_hg& y : b) {
        double h = x.h * y.h;
        if (h > max_budget) break;  // b ascends in h
        auto at = static_cast<std::size_t>(h);
        least[at] = std::min(least[at], x.g * y.g);
      }
    return front_of_least(least);
  }
  std::vector<pair_hg> next;
  for (const pair_hg& x : a)
    for (const pair_hg& y : b)
      if (x.h * y.h <= max_budget) next.push_back({x.h * y.h, x.g * y.g});
  return pareto(std::move(next));
}

}  // namespace

// One loop's chains as (resource factor, objective factor) pairs, their front; memoized, as
// many monomials share a loop's factor tables.
const std::vector<pair_hg>& bound_model::loop_front(std::size_t loop, int resource_table, int objective_table) {
  auto key = std::make_tuple(loop, resource_table, objective_table);
  if (auto known = loop_fronts_.find(key); known != loop_fronts_.end()) return known->second;
  std::size_t count = space_.loop_chain_count(loop);
  std::vector<pair_hg> own(count);
  for (std::size_t c = 0; c < count; ++c) {
    own[c].h = resource_table < 0 ? 1.0 : tables_[static_cast<std::size_t>(resource_table)][c];
    own[c].g = objective_table < 0 ? 1.0 : tables_[static_cast<std::size_t>(objective_table)][c];
  }
  return loop_fronts_[key] = pareto(std::move(own));
}

frontier bound_model::frontier_for(int monomial, int resource, std::size_t level, double max_budget) {
  const lb_node& m = nodes_[static_cast<std::size_t>(monomial)];
  const lb_node& q = nodes_[static_cast<std::size_t>(resource)];
  std::vector<pair_hg> combined{{1.0, 1.0}};
  for (std::size_t p = level; p < order_.size(); ++p) {
    poll();
    std::size_t loop = order_[p];
    const std::vector<pair_hg>& own = loop_front(loop, q.factors[loop], m.factors[loop]);
    if (own.size() * combined.size() > frontier_cap) return {};
    combined = product_front(combined, own, max_budget);
  }
  frontier f;
  for (const pair_hg& p : combined) {
    f.budget.push_back(p.h);
    f.best.push_back(p.g);
  }
  return f;
}

// A coupling pays off where the factor of the free loops is least only for chains that use much
// of the resource (e.g. the compute term wants SIMD 8 and many PEs, DSP allows few of both).
void bound_model::build_couplings() {
  couplings_.resize(nodes_.size());
  std::size_t loops = order_.size();
  std::vector<int> objective_monomials;
  std::vector<int> stack{objective_root_};
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    const lb_node& n = nodes_[static_cast<std::size_t>(id)];
    if (n.type == lb_node::kind::monomial) objective_monomials.push_back(id);
    stack.insert(stack.end(), n.children.begin(), n.children.end());
  }
  std::sort(objective_monomials.begin(), objective_monomials.end());
  objective_monomials.erase(std::unique(objective_monomials.begin(), objective_monomials.end()), objective_monomials.end());
  for (std::size_t r = 0; r < resource_monomials_.size(); ++r) {
    int q = resource_monomials_[r];
    // Only a resource that is one monomial as a whole (DSP) couples: a summand of a sum (one
    // buffer of BRAM) seldom exhausts the device on its own, and each frontier costs time.
    bool whole_resource = std::any_of(resources_.begin(), resources_.end(), [&](const auto& root) { return root.first == q; });
    if (!whole_resource) continue;
    const lb_node& qn = nodes_[static_cast<std::size_t>(q)];
    for (std::size_t level = loops > 2 ? loops - 2 : 1; level < loops; ++level) {
      // The largest budget the fixed loops can leave: limit / (c x their least resource factors).
      double fixed_min = qn.coefficient;
      bool touches_free = false;
      for (std::size_t p = 0; p < loops; ++p) {
        int f = qn.factors[order_[p]];
        if (f < 0) continue;
        if (p < level) fixed_min *= table_min_[static_cast<std::size_t>(f)];
        else touches_free = true;
      }
      if (!touches_free || fixed_min <= 0) continue;
      double max_budget = resource_monomial_limit_[r] / fixed_min;
      // A frontier depends on the monomial only through its factors on the free loops, which
      // many monomials share (the terms of one module over different fixed loops): each is
      // built once.
      std::map<std::vector<int>, frontier> built;
      for (int m : objective_monomials) {
        poll();
        std::vector<int> free_factors;
        for (std::size_t p = level; p < loops; ++p) free_factors.push_back(nodes_[static_cast<std::size_t>(m)].factors[order_[p]]);
        auto known = built.find(free_factors);
        if (known == built.end()) known = built.emplace(std::move(free_factors), frontier_for(m, q, level, max_budget)).first;
        const frontier& f = known->second;
        if (f.budget.size() >= 2) couplings_[static_cast<std::size_t>(m)].push_back({q, resource_monomial_limit_[r], level, f});
      }
    }
  }
  loop_fronts_.clear();
}

double bound_model::monomial_bound(int id, const node_state& s) const {
  const lb_node& n = nodes_[static_cast<std::size_t>(id)];
  double fixed = n.coefficient;
  double free = 1;
  for (std::size_t loop = 0; loop < n.factors.size(); ++loop) {
    int f = n.factors[loop];
    if (f < 0) continue;
    if (position_[loop] < s.level) fixed *= tables_[static_cast<std::size_t>(f)][s.chain[loop]];
    else free *= table_min_[static_cast<std::size_t>(f)];
  }
  if (static_cast<std::size_t>(id) >= couplings_.size()) return fixed * free;  // while building
  for (const coupling& c : couplings_[static_cast<std::size_t>(id)]) {
    if (c.level != s.level) continue;
    const lb_node& q = nodes_[static_cast<std::size_t>(c.resource_monomial)];
    double used = q.coefficient;
    for (std::size_t loop = 0; loop < q.factors.size(); ++loop)
      if (q.factors[loop] >= 0 && position_[loop] < s.level) used *= tables_[static_cast<std::size_t>(q.factors[loop])][s.chain[loop]];
    double budget = c.limit / used * (1 + 1e-12);
    auto above = std::upper_bound(c.pareto.budget.begin(), c.pareto.budget.end(), budget);
    if (above == c.pareto.budget.begin()) return infinity;  // nothing fits the budget left
    free = std::max(free, c.pareto.best[static_cast<std::size_t>(above - c.pareto.budget.begin()) - 1]);
  }
  return fixed * free;
}

// Values computed in an evaluation: value[id] is valid for the epoch in stamp[id].
struct bound_model::scratch {
  std::vector<double> value;
  std::vector<std::uint64_t> stamp;
};

namespace {
thread_local std::uint64_t last_epoch = 0;
}  // namespace

std::uint64_t bound_model::new_epoch() { return ++last_epoch; }

double bound_model::evaluate(int id, const node_state& s, std::uint64_t epoch) const {
  thread_local scratch memo;
  if (memo.stamp.size() < nodes_.size()) {
    memo.stamp.resize(nodes_.size(), 0);
    memo.value.resize(nodes_.size());
  }
  return evaluate_node(id, s, memo, epoch);
}

double bound_model::evaluate_node(int id, const node_state& s, scratch& memo, std::uint64_t epoch) const {
  auto at = static_cast<std::size_t>(id);
  if (memo.stamp[at] == epoch) return memo.value[at];
  const lb_node& n = nodes_[at];
  double v = 0;
  switch (n.type) {
    case lb_node::kind::monomial: v = monomial_bound(id, s); break;
    case lb_node::kind::sum:
      for (int c : n.children) v += evaluate_node(c, s, memo, epoch);
      break;
    case lb_node::kind::product:
      v = 1;
      for (int c : n.children) v *= evaluate_node(c, s, memo, epoch);
      break;
    case lb_node::kind::max:
      for (int c : n.children) v = std::max(v, evaluate_node(c, s, memo, epoch));
      break;
    case lb_node::kind::min:
      v = infinity;
      for (int c : n.children) v = std::min(v, evaluate_node(c, s, memo, epoch));
      break;
    case lb_node::kind::ceil: v = std::ceil(evaluate_node(n.children[0], s, memo, epoch)); break;
    case lb_node::kind::floor: v = std::floor(evaluate_node(n.children[0], s, memo, epoch)); break;
    case lb_node::kind::excess: v = std::max(0.0, evaluate_node(n.children[0], s, memo, epoch) - n.coefficient); break;
  }
  memo.stamp[at] = epoch;
  memo.value[at] = v;
  return v;
}

bool bound_model::resources_exceed(const node_state& s, std::uint64_t epoch) const {
  for (const auto& [root, limit] : resources_)
    if (evaluate(root, s, epoch) > limit * (1 + 1e-12)) return true;
  return false;
}

}  // namespace sadsl::tune::detail
