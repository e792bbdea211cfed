// The tables of the bounds: the value of an expression that depends on one loop, at every chain
// (tiling factors) of that loop. They are computed a whole column at a time, node by node over
// all chains, rather than by interpreting the expression once per chain: a design has hundreds of
// such expressions and a loop thousands of chains, and the per-point walk was most of the exact
// search's set-up. The arithmetic is the model's own (model::apply), so a table holds exactly what
// the model evaluates.
#include <algorithm>
#include <bit>
#include <cmath>

#include "bound.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/interpreter.hpp"

namespace sadsl::tune::detail {

namespace {

// Deeper expressions are evaluated point by point (the interpreter walks them without recursion).
constexpr std::uint32_t column_depth_limit = 256;

}  // namespace

// Per parameter: the chain's factor for a level of `loop`; an inferred parameter that depends on
// `loop` alone (or on nothing) as the model infers it, in parameter order; any other parameter at
// its value in the smallest point.
const std::vector<bound_model::column>& bound_model::param_columns(std::size_t loop) {
  if (param_columns_.size() < space_.loops().size()) param_columns_.resize(space_.loops().size());
  std::vector<column>& cols = param_columns_[loop];
  if (!cols.empty()) return cols;
  const model::design_model& m = space_.model();
  const tiled_loop& tl = space_.loops()[loop];
  const std::vector<std::int64_t>& chains = space_.loop_chains(loop);
  std::size_t levels = tl.levels.size();
  std::size_t count = chains.size() / levels;
  std::vector<double> smallest = space_.parameters(space_.smallest());
  std::vector<column> out(m.params.size());
  for (std::size_t p = 0; p < m.params.size(); ++p) out[p].scalar = smallest[p];
  for (std::size_t level = 0; level < levels; ++level) {
    std::vector<double>& v = out[tl.levels[level]].values;
    v.resize(count);
    for (std::size_t c = 0; c < count; ++c) v[c] = static_cast<double>(chains[c * levels + level]);
  }
  for (std::size_t p = 0; p < m.params.size(); ++p) {
    if (!m.params[p].inferred) continue;
    auto depends = loops_of(model::expr::parameter(p, m.params[p].name));
    if (depends.empty() || (depends.size() == 1 && depends[0] == loop)) out[p] = evaluate_column(m.params[p].inferred->upper, out, count);
  }
  cols = std::move(out);
  return cols;
}

bound_model::column bound_model::evaluate_column(const model::expr& e, const std::vector<column>& params,
                                                 std::size_t chains) const {
  using model::op;
  switch (e.kind()) {
    case op::constant: return {e.constant_value(), {}};
    case op::parameter: return params[e.parameter_index()];
    default: break;
  }
  column out;
  // A summation binds its index term by term: evaluated chain by chain.
  if (e.depth() > column_depth_limit || model::is_reduction(e.kind())) {
    out.values.resize(chains);
    std::vector<double> point(params.size());
    for (std::size_t c = 0; c < chains; ++c) {
      for (std::size_t p = 0; p < params.size(); ++p) point[p] = params[p].values.empty() ? params[p].scalar : params[p].values[c];
      out.values[c] = model::evaluate(e, point);
    }
    return out;
  }
  // A parameter operand is read in place, not copied.
  auto operand = [&](const model::expr& x, column& computed) -> const column& {
    if (x.kind() == op::parameter) return params[x.parameter_index()];
    computed = evaluate_column(x, params, chains);
    return computed;
  };
  column a_computed, b_computed;
  const column& a = operand(e.lhs(), a_computed);
  const column& b = model::is_binary(e.kind()) ? operand(e.rhs(), b_computed) : b_computed;
  if (a.values.empty() && b.values.empty()) return {model::apply(e.kind(), a.scalar, b.scalar), {}};
  const double* av = a.values.empty() ? nullptr : a.values.data();
  const double* bv = b.values.empty() ? nullptr : b.values.data();
  // The result reuses an operand's storage when it owns one (moving keeps the buffer, so av and
  // bv stay valid; each element is read before it is overwritten).
  if (!a_computed.values.empty()) out.values = std::move(a_computed.values);
  else if (!b_computed.values.empty()) out.values = std::move(b_computed.values);
  else out.values.resize(chains);
  double* o = out.values.data();
  for (std::size_t c = 0; c < chains; ++c) o[c] = model::apply(e.kind(), av ? av[c] : a.scalar, bv ? bv[c] : b.scalar);
  return out;
}

// Values of `e` (which depends on `loop` only) for every chain of the loop.
int bound_model::table_for(const model::expr& e, std::size_t loop) {
  for (const auto& [l, known, id] : table_exprs_)
    if (l == loop && known.same_as(e)) return id;
  const tiled_loop& tl = space_.loops()[loop];
  std::size_t chains = space_.loop_chains(loop).size() / tl.levels.size();
  column col = evaluate_column(e, param_columns(loop), chains);
  std::vector<double> values = col.values.empty() ? std::vector<double>(chains, col.scalar) : std::move(col.values);
  for (std::size_t c = 0; c < values.size(); ++c)
    if (!(values[c] >= 0) || !std::isfinite(values[c]))
      throw error("exact search: design \"" + space_.name() + "\": \"" + model::to_string(e) +
                  "\" is negative or not finite at " + tl.name + " tiling #" + std::to_string(c));
  int id = add_table(std::move(values));
  table_exprs_.emplace_back(loop, e, id);
  return id;
}

int bound_model::add_table(std::vector<double> values) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a over the values (-0 as 0: equal values, one hash)
  for (double v : values) hash = (hash ^ std::bit_cast<std::uint64_t>(v == 0 ? 0.0 : v)) * 1099511628211ull;
  std::vector<int>& alike = table_ids_[hash];
  for (int known : alike)
    if (tables_[static_cast<std::size_t>(known)] == values) return known;
  int id = static_cast<int>(tables_.size());
  alike.push_back(id);
  table_min_.push_back(*std::min_element(values.begin(), values.end()));
  tables_.push_back(std::move(values));
  return id;
}

}  // namespace sadsl::tune::detail
