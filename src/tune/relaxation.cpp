#include "relaxation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "sadsl/error.hpp"

namespace sadsl::tune {

namespace {

// A gradient over the relaxation's variables, inline up to 24 of them (every kernel's so far):
// the walk makes one per node, and allocating each was most of its time.
class gradient {
public:
  explicit gradient(std::size_t n = 0) : n_(n) {
    if (n_ > inline_size) heap_.assign(n_, 0.0);
  }
  std::size_t size() const { return n_; }
  double& operator[](std::size_t i) { return n_ > inline_size ? heap_[i] : small_[i]; }
  double operator[](std::size_t i) const { return n_ > inline_size ? heap_[i] : small_[i]; }

private:
  static constexpr std::size_t inline_size = 24;
  std::size_t n_;
  std::array<double, inline_size> small_{};
  std::vector<double> heap_;
};

}  // namespace

struct relaxation::dual {
  double value = 0;
  gradient d;
};

relaxation::relaxation(const design_space& space) : space_(space), base_(space.parameters(space.smallest())) {
  param_variable_.assign(space.model().params.size(), -1);
  for (const tiled_loop& loop : space.loops())
    for (std::size_t level = 0; level < loop.levels.size(); ++level) {
      param_variable_[loop.levels[level]] = static_cast<int>(variable_param_.size());
      variable_param_.push_back(loop.levels[level]);
    }
}

// One evaluation: the values of the indices of the sums being walked (by id), and each shared
// subexpression's value outside sums, walked once (a compiler-built model is a tree of millions
// of nodes over a DAG of thousands: the joined phase start repeats its subtrees).
struct relaxation::walk_state {
  std::vector<double> indices;
  int sums = 0;  // sums being walked: inside one, a node's value depends on the indices
  std::unordered_map<const void*, dual> known;
};

relaxation::dual relaxation::walk(const model::expr& e, const double* x, walk_state& state) const {
  if (state.sums > 0 || e.kind() == model::op::constant) return walk_node(e, x, state);
  if (auto it = state.known.find(e.identity()); it != state.known.end()) return it->second;
  dual r = walk_node(e, x, state);
  state.known.emplace(e.identity(), r);
  return r;
}

relaxation::dual relaxation::walk_node(const model::expr& e, const double* x, walk_state& state) const {
  using model::op;
  std::size_t n = variable_param_.size();
  switch (e.kind()) {
    case op::constant: return {e.constant_value(), gradient(n)};
    case op::parameter: {
      std::size_t p = e.parameter_index();
      const model::parameter& param = space_.model().params[p];
      if (param.inferred) return walk(param.inferred->upper, x, state);
      dual r{base_[p], gradient(n)};
      if (param_variable_[p] >= 0) {
        r.value = x[param_variable_[p]];
        r.d[static_cast<std::size_t>(param_variable_[p])] = 1;
      }
      return r;
    }
    case op::ceil:
    case op::floor: return walk(e.lhs(), x, state);  // relaxed: the rounding is dropped
    case op::index:
      SADSL_INTERNAL_ASSERT(e.index_id() < state.indices.size(), "an index outside its sum");
      return {state.indices[e.index_id()], gradient(n)};
    case op::sum:
    case op::maximum: return walk_reduction(e, x, state);
    default: break;
  }
  dual a = walk(e.lhs(), x, state);
  dual b = walk(e.rhs(), x, state);
  dual r{0, gradient(n)};
  switch (e.kind()) {
    case op::add: r.value = a.value + b.value; for (std::size_t i = 0; i < n; ++i) r.d[i] = a.d[i] + b.d[i]; break;
    case op::sub: r.value = a.value - b.value; for (std::size_t i = 0; i < n; ++i) r.d[i] = a.d[i] - b.d[i]; break;
    case op::mul: r.value = a.value * b.value; for (std::size_t i = 0; i < n; ++i) r.d[i] = a.d[i] * b.value + a.value * b.d[i]; break;
    case op::div:
    case op::floor_div:
    case op::ceil_div:
      r.value = a.value / b.value;
      for (std::size_t i = 0; i < n; ++i) r.d[i] = (a.d[i] * b.value - a.value * b.d[i]) / (b.value * b.value);
      break;
    case op::min: return b.value < a.value ? b : a;
    case op::max: return b.value > a.value ? b : a;
    // Relaxed to its cap, the widest packing (as the divisibility tests it replaces relax to).
    case op::pow2_divisor: return {b.value, gradient(n)};
    default: SADSL_INTERNAL_ASSERT(false, "unexpected operation in relaxation");
  }
  return r;
}

relaxation::dual relaxation::walk_reduction(const model::expr& e, const double* x, walk_state& state) const {
  double lo = std::ceil(walk(e.lhs(), x, state).value), hi = std::floor(walk(e.rhs(), x, state).value);
  dual total{0, gradient(variable_param_.size())};
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {std::numeric_limits<double>::quiet_NaN(), total.d};
  std::size_t id = e.index_id();
  std::vector<double>& indices = state.indices;
  if (indices.size() <= id) indices.resize(id + 1, std::numeric_limits<double>::quiet_NaN());
  double outer = indices[id];
  ++state.sums;
  const bool largest = e.kind() == model::op::maximum;  // the largest of 0 and the terms, and its gradient
  for (double v = lo; v <= hi; v += 1) {
    indices[id] = v;
    dual term = walk(e.body(), x, state);
    if (largest) {
      if (term.value > total.value || term.value != term.value) total = term;
      continue;
    }
    total.value += term.value;
    for (std::size_t i = 0; i < total.d.size(); ++i) total.d[i] += term.d[i];
  }
  --state.sums;
  indices[id] = outer;
  return total;
}

double relaxation::evaluate(const model::expr& e, const double* x, double* gradient_out) const {
  walk_state state;
  dual r = walk(e, x, state);
  for (std::size_t i = 0; gradient_out && i < r.d.size(); ++i) gradient_out[i] = r.d[i];
  return r.value;
}

}  // namespace sadsl::tune
