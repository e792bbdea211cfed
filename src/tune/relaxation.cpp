#include "relaxation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sadsl/error.hpp"

namespace sadsl::tune {

struct relaxation::dual {
  double value = 0;
  std::vector<double> d;
};

relaxation::relaxation(const design_space& space) : space_(space), base_(space.parameters(space.smallest())) {
  param_variable_.assign(space.model().params.size(), -1);
  for (const tiled_loop& loop : space.loops())
    for (std::size_t level = 0; level < loop.levels.size(); ++level) {
      param_variable_[loop.levels[level]] = static_cast<int>(variable_param_.size());
      variable_param_.push_back(loop.levels[level]);
    }
}

relaxation::dual relaxation::walk(const model::expr& e, const double* x, std::vector<double>& indices) const {
  using model::op;
  std::size_t n = variable_param_.size();
  switch (e.kind()) {
    case op::constant: return {e.constant_value(), std::vector<double>(n, 0.0)};
    case op::parameter: {
      std::size_t p = e.parameter_index();
      const model::parameter& param = space_.model().params[p];
      if (param.inferred) return walk(param.inferred->upper, x, indices);
      dual r{base_[p], std::vector<double>(n, 0.0)};
      if (param_variable_[p] >= 0) {
        r.value = x[param_variable_[p]];
        r.d[static_cast<std::size_t>(param_variable_[p])] = 1;
      }
      return r;
    }
    case op::ceil:
    case op::floor: return walk(e.lhs(), x, indices);  // relaxed: the rounding is dropped
    case op::index:
      SADSL_INTERNAL_ASSERT(e.index_id() < indices.size(), "an index outside its sum");
      return {indices[e.index_id()], std::vector<double>(n, 0.0)};
    case op::sum: return walk_sum(e, x, indices);
    default: break;
  }
  dual a = walk(e.lhs(), x, indices);
  dual b = walk(e.rhs(), x, indices);
  dual r{0, std::vector<double>(n, 0.0)};
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
    default: SADSL_INTERNAL_ASSERT(false, "unexpected operation in relaxation");
  }
  return r;
}

relaxation::dual relaxation::walk_sum(const model::expr& e, const double* x, std::vector<double>& indices) const {
  double lo = std::ceil(walk(e.lhs(), x, indices).value), hi = std::floor(walk(e.rhs(), x, indices).value);
  dual total{0, std::vector<double>(variable_param_.size(), 0.0)};
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {std::numeric_limits<double>::quiet_NaN(), total.d};
  std::size_t id = e.index_id();
  if (indices.size() <= id) indices.resize(id + 1, std::numeric_limits<double>::quiet_NaN());
  double outer = indices[id];
  for (double v = lo; v <= hi; v += 1) {
    indices[id] = v;
    dual term = walk(e.body(), x, indices);
    total.value += term.value;
    for (std::size_t i = 0; i < total.d.size(); ++i) total.d[i] += term.d[i];
  }
  indices[id] = outer;
  return total;
}

double relaxation::evaluate(const model::expr& e, const double* x, double* gradient) const {
  std::vector<double> indices;
  dual r = walk(e, x, indices);
  if (gradient) std::copy(r.d.begin(), r.d.end(), gradient);
  return r.value;
}

}  // namespace sadsl::tune
