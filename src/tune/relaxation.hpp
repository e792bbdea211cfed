#pragma once
// Internal: the continuous relaxation of a model for math programming. Tiling factors become
// real variables, ceil and floor are dropped (ceil(N / t1) -> N / t1), inferred parameters take
// their relaxed formula, and every expression is evaluated with its gradient (forward mode). A
// summation adds its terms at the integers of its range (its bounds' gradient is dropped).
#include <unordered_map>
#include <vector>

#include "sadsl/tune/design_space.hpp"

namespace sadsl::tune {

class relaxation {
public:
  explicit relaxation(const design_space& space);
  /// Variables: the tiling values of every loop, in tiling order.
  std::size_t variables() const { return variable_param_.size(); }
  /// Value and gradient of `e` at x.
  double evaluate(const model::expr& e, const double* x, double* gradient) const;

private:
  struct dual;
  struct walk_state;
  dual walk(const model::expr& e, const double* x, walk_state& state) const;
  dual walk_node(const model::expr& e, const double* x, walk_state& state) const;
  dual walk_reduction(const model::expr& e, const double* x, walk_state& state) const;

  const design_space& space_;
  std::vector<double> base_;               ///< problem sizes
  std::vector<int> param_variable_;        ///< model parameter -> variable index, -1 if none
  std::vector<std::size_t> variable_param_;
};

}  // namespace sadsl::tune
