#pragma once
// A model's resource totals (flip-flops, block RAM, I/O modules) are sums of count x cost terms in
// which the same cost comes back for many modules. Collected as (count_1 + count_2) x cost they
// take fewer operations in the compiled model, with the same value wherever the counts and costs
// are integers and the sums stay below 2^53 (integer sums and products are then exact in any
// order): at every legal point, where PE counts t1 / t2 divide and the rest are counts of
// instances, words, bits and blocks. A term with a factor that is the constant 0 is left out (0
// wherever the model has a value; as a product it would be NaN where the other factor is infinite).
#include <utility>
#include <vector>

#include "sadsl/model/expr.hpp"

namespace sadsl::modeling {

class integer_sum {
public:
  /// Adds count x each.
  void add(const model::expr& count, const model::expr& each);
  /// Adds `term` (x 1).
  void add(const model::expr& term) { add(term, model::expr(1)); }
  /// The sum of the terms (0 without any): equal costs collected, in the order first added.
  model::expr total() const;

private:
  std::vector<std::pair<model::expr, model::expr>> given_;  // count, each: as added
};

}  // namespace sadsl::modeling
