#include "sadsl/tune/objective.hpp"

#include <limits>

#include "sadsl/error.hpp"

namespace sadsl::tune {

std::string objective::name() const {
  switch (kind) {
    case objective_kind::latency: return "latency";
    case objective_kind::throughput: return "throughput";
    case objective_kind::offchip: return "offchip";
    case objective_kind::dsp: return "dsp";
    case objective_kind::custom: return "custom";
  }
  return "?";
}

double objective::cost(const model::metrics& m, std::span<const double> params) const {
  if (m.feasible == 0) return std::numeric_limits<double>::infinity();
  switch (kind) {
    case objective_kind::latency:
    case objective_kind::throughput: return m.latency;  // the work is fixed: fewer cycles, more throughput
    case objective_kind::offchip: return m.offchip_bytes;
    case objective_kind::dsp: return m.dsp;
    case objective_kind::custom:
      if (!function) throw error("custom objective without a function");
      return function(m, params);
  }
  return std::numeric_limits<double>::infinity();
}

objective objective_named(const std::string& name) {
  for (objective_kind kind : {objective_kind::latency, objective_kind::throughput, objective_kind::offchip, objective_kind::dsp}) {
    objective o{kind, {}};
    if (o.name() == name) return o;
  }
  throw error("unknown objective \"" + name + "\" (known: latency, throughput, offchip, dsp)");
}

}  // namespace sadsl::tune
