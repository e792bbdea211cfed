#pragma once
// Normal distributions: the form of every prediction in the tuning-knob search (paper 004 section
// 4). Derived features combine predictions with + - * /, assuming the operands are independent
// (paper 004 section 6). Products and quotients of normals are not normal; like the paper we use the
// normal with the same first two moments (exact for *, first-order for /), which is good while the
// operands are far from zero.
namespace sadsl::knobs {

struct normal {
  double mean = 0;
  double variance = 0;  // >= 0; +inf means "nothing is known"
  double stddev() const;
};

/// A known value: variance 0.
inline normal exactly(double value) { return {value, 0}; }

normal operator+(const normal& a, const normal& b);  // means add, variances add
normal operator-(const normal& a, const normal& b);  // means subtract, variances add
normal operator*(const normal& a, const normal& b);  // exact mean and variance of the product
normal operator/(const normal& a, const normal& b);  // delta method; divisor mean 0 -> infinite variance

/// P(x < limit).
double probability_below(const normal& x, double limit);
/// P(x < limit) for an uncertain limit independent of x (a proxy constraint's cutoff).
double probability_below(const normal& x, const normal& limit);
/// P(x > target).
double probability_above(const normal& x, double target);

/// The natural logarithms of the same probabilities, accurate far into the tails (where the
/// probabilities themselves underflow to 0), so that candidates that are all very unlikely to
/// succeed can still be ranked. -inf for an impossible event (zero variance).
double log_probability_below(const normal& x, double limit);
double log_probability_below(const normal& x, const normal& limit);
double log_probability_above(const normal& x, double target);

}  // namespace sadsl::knobs
