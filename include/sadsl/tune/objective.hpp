#pragma once
// What a search minimises. Every built-in objective maps a point's metrics to a cost (lower is
// better); infeasible points cost +infinity.
#include <functional>
#include <span>
#include <string>

#include "sadsl/model/design_model.hpp"

namespace sadsl::tune {

enum class objective_kind {
  latency,     ///< cycles (the default)
  throughput,  ///< operations per second at the device clock: for a fixed problem, the same order as latency
  offchip,     ///< off-chip traffic in bytes
  dsp,         ///< DSP use (the smallest design)
  custom,      ///< a user function
};

struct objective {
  objective_kind kind = objective_kind::latency;
  /// For objective_kind::custom: the cost of a point (metrics and model parameter values). Only
  /// feasible points are ever kept, but genetic-mp's local search also asks about infeasible ones
  /// (to weigh what a loop's chains cost against the resources they take), so the function should
  /// not assume feasibility.
  std::function<double(const model::metrics&, std::span<const double>)> function;

  /// "latency", "throughput", "offchip", "dsp" or "custom".
  std::string name() const;
  /// The cost of a point; +infinity unless it is feasible.
  double cost(const model::metrics& m, std::span<const double> params) const;
  /// The model metric the cost equals, for searches that bound it symbolically (exact); none for custom.
  bool has_metric() const { return kind != objective_kind::custom; }
};

/// "latency", "throughput", "offchip" or "dsp"; throws sadsl::error naming the known ones.
objective objective_named(const std::string& name);

}  // namespace sadsl::tune
