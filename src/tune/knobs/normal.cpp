#include "sadsl/tune/knobs/normal.hpp"

#include <cmath>
#include <limits>

namespace sadsl::knobs {

namespace {
constexpr double infinite = std::numeric_limits<double>::infinity();

// P(X < 0) for X with the given mean and variance.
double probability_negative(double mean, double variance) {
  if (std::isinf(variance) || std::isnan(mean)) return 0.5;
  if (variance <= 0) return mean < 0 ? 1.0 : (mean > 0 ? 0.0 : 0.5);
  return 0.5 * std::erfc(mean / std::sqrt(2.0 * variance));
}
}  // namespace

double normal::stddev() const { return std::sqrt(variance); }

normal operator+(const normal& a, const normal& b) { return {a.mean + b.mean, a.variance + b.variance}; }
normal operator-(const normal& a, const normal& b) { return {a.mean - b.mean, a.variance + b.variance}; }

normal operator*(const normal& a, const normal& b) {
  // Var(AB) = mA^2 vB + mB^2 vA + vA vB for independent A, B.
  return {a.mean * b.mean, a.mean * a.mean * b.variance + b.mean * b.mean * a.variance + a.variance * b.variance};
}

normal operator/(const normal& a, const normal& b) {
  if (b.mean == 0) return {0, infinite};
  const double q = a.mean / b.mean;
  // First-order (delta method): Var(A/B) ~ vA/mB^2 + mA^2 vB/mB^4.
  return {q, a.variance / (b.mean * b.mean) + q * q * b.variance / (b.mean * b.mean)};
}

double probability_below(const normal& x, double limit) { return probability_negative(x.mean - limit, x.variance); }

double probability_below(const normal& x, const normal& limit) {
  return probability_negative(x.mean - limit.mean, x.variance + limit.variance);
}

double probability_above(const normal& x, double target) { return probability_negative(target - x.mean, x.variance); }

}  // namespace sadsl::knobs
