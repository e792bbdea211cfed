#pragma once
// The reference evaluator: walks the expression trees of a model. Slow but obviously right; the
// compiled evaluators are checked against it.
#include <span>

#include "sadsl/model/design_model.hpp"

namespace sadsl::model {

/// Legality bookkeeping shared by every evaluator: Odyssey's power-of-two test (log2 is an
/// integer), i.e. a positive finite double whose mantissa bits are all zero.
bool is_power_of_two(double x);
/// True when a / b is an integer (exact for integers below 2^53).
bool divides_exactly(double b, double a);

class interpreter {
public:
  explicit interpreter(design_model model);
  /// Evaluates one point: `point` holds a value per parameter (inferred ones are written back).
  metrics evaluate(std::span<double> point, const device_limits& limits) const;
  /// Evaluates `count` points stored row by row (parameter_count() values each).
  void evaluate_batch(std::size_t count, std::span<double> points, std::span<metrics> out,
                      const device_limits& limits) const;
  const design_model& model() const { return model_; }
  std::size_t parameter_count() const { return model_.params.size(); }

private:
  design_model model_;
  metric_expressions metrics_;
};

}  // namespace sadsl::model
