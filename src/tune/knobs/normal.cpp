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
// log P(X < 0). Beyond 30 standard deviations erfc underflows; there the asymptotic expansion
// log Phi(-z) = -z^2/2 - log z - log(2 pi)/2 + log(1 - 1/z^2) is accurate to ~1e-6.
double log_probability_negative(double mean, double variance) {
  if (std::isinf(variance) || std::isnan(mean)) return std::log(0.5);
  if (variance <= 0) return mean < 0 ? 0.0 : (mean > 0 ? -infinite : std::log(0.5));
  const double z = mean / std::sqrt(variance);  // P = Phi(-z)
  if (z < 30) return std::log(0.5 * std::erfc(z / std::sqrt(2.0)));
  return -0.5 * z * z - std::log(z) - 0.5 * std::log(2 * M_PI) + std::log1p(-1 / (z * z));
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

double log_probability_below(const normal& x, double limit) {
  return log_probability_negative(x.mean - limit, x.variance);
}

double log_probability_below(const normal& x, const normal& limit) {
  return log_probability_negative(x.mean - limit.mean, x.variance + limit.variance);
}

double log_probability_above(const normal& x, double target) {
  return log_probability_negative(target - x.mean, x.variance);
}

}  // namespace sadsl::knobs
