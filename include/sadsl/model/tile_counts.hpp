#pragma once
// A model's tile counts (ceil(I / i_t1) and the like) and an order of its products by them, so that
// designs that differ only in their tile order have the same expressions up to which count goes
// where: the generated code of such models shares one compiled core (docs/model.md, "Evaluation").
#include <cstddef>
#include <vector>

#include "sadsl/model/design_model.hpp"

namespace sadsl::model {

/// Every expression a model's evaluation computes: its metrics (`metrics`, metrics_of(model)) from
/// the latency on, its constraints' sides, its inferred parameters' bounds.
std::vector<expr> evaluated_expressions(const design_model& model, const metric_expressions& metrics);

/// The tile counts of `model`: its subexpressions ceil(a / b) or ceil_div(a, b) of two parameters,
/// neither inferred (e.g. ceil(I / i_t1)), each once, in the order a walk of its
/// evaluated_expressions() meets them (depth first, left operand first).
std::vector<expr> tile_counts(const design_model& model);

/// The parameter indices a, b of each of `counts` (tile_counts()), in order: the table a
/// model's generated core reads its counts from.
std::vector<std::size_t> count_operands(const std::vector<expr>& counts);

/// Writes each product of integer-valued factors in `model` that has tile counts among its
/// factors as those counts in the order of tile_counts(), then its other factors in their order,
/// multiplied left to right; repeated while that changes the order of the counts (at most a few
/// times). Integers below 2^53 multiply exactly in any order, so the values are the same wherever
/// the products stay below 2^53. A builder whose products follow its design's tile order (MM's
/// [k] <[i,j],k> multiplies the counts of i, j and k in that order, [k] <[j,k],i> in its own)
/// calls it so that such designs have one core.
void order_products(design_model& model);

}  // namespace sadsl::model
