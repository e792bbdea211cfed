#include "sadsl/model/interpreter.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

#include "sadsl/error.hpp"

namespace sadsl::model {

bool is_power_of_two(double x) {
  return x > 0 && std::isfinite(x) && (std::bit_cast<std::uint64_t>(x) & ((std::uint64_t{1} << 52) - 1)) == 0;
}

bool divides_exactly(double b, double a) {
  double q = a / b;
  return b != 0 && q == std::floor(q);
}

interpreter::interpreter(design_model model) : model_(std::move(model)), metrics_(metrics_of(model_)) {}

namespace {

bool holds(const constraint& c, std::span<const double> point) {
  double lhs = evaluate(c.lhs, point);
  switch (c.relation) {
    case constraint::kind::at_least: return lhs >= evaluate(c.rhs, point);
    case constraint::kind::at_most: return lhs <= evaluate(c.rhs, point);
    case constraint::kind::power_of_two: return is_power_of_two(lhs);
    case constraint::kind::divides: return divides_exactly(lhs, evaluate(c.rhs, point));
  }
  SADSL_INTERNAL_ASSERT(false, "unknown constraint kind");
}

}  // namespace

metrics interpreter::evaluate(std::span<double> point, const device_limits& limits) const {
  SADSL_INTERNAL_ASSERT(point.size() == model_.params.size(), "point has the wrong number of values");
  bool legal = true;
  for (std::size_t i = 0; i < model_.params.size(); ++i) {
    const auto& inferred = model_.params[i].inferred;
    if (!inferred) continue;
    double lower = model::evaluate(inferred->lower, point);
    double upper = model::evaluate(inferred->upper, point);
    legal = legal && lower >= 1 && upper >= lower && divides_exactly(lower, upper);
    point[i] = upper;
  }
  for (const constraint& c : model_.constraints) legal = legal && holds(c, point);
  metrics m;
  m.latency_prologue = model::evaluate(metrics_.latency_prologue, point);
  m.latency_main = model::evaluate(metrics_.latency_main, point);
  m.latency_epilogue = model::evaluate(metrics_.latency_epilogue, point);
  m.latency = model::evaluate(metrics_.latency, point);
  m.dsp = model::evaluate(metrics_.dsp, point);
  m.bram18k = model::evaluate(metrics_.bram18k, point);
  m.uram = model::evaluate(metrics_.uram, point);
  m.lut = model::evaluate(metrics_.lut, point);
  m.ff = model::evaluate(metrics_.ff, point);
  m.offchip_bytes = model::evaluate(metrics_.offchip_bytes, point);
  m.legal = legal ? 1 : 0;
  bool fits = m.dsp <= limits.dsp && m.bram18k <= limits.bram18k && m.uram <= limits.uram;
  m.feasible = legal && fits ? 1 : 0;
  return m;
}

void interpreter::evaluate_batch(std::size_t count, std::span<double> points, std::span<metrics> out,
                                 const device_limits& limits) const {
  std::size_t width = parameter_count();
  SADSL_INTERNAL_ASSERT(points.size() >= count * width && out.size() >= count, "batch buffers too small");
  for (std::size_t p = 0; p < count; ++p) out[p] = evaluate(points.subspan(p * width, width), limits);
}

}  // namespace sadsl::model
