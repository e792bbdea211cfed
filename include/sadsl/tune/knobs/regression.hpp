#pragma once
// Probabilistic regression (paper 004 section 5): predicts a normal distribution for a sensor at an
// untested point from tested points. For a candidate c and its neighbours n:
//   interp(c)    = local linear average: the inverse-distance weighted least-squares plane through
//                  the neighbours, evaluated at c and kept inside the neighbours' range of values
//                  (like a plain average it never extrapolates; unlike it, it is exact for linear
//                  data between samples, also in several dimensions)
//   extrap(c, n) = value(n) + derivative at n towards c * dist(c, n)
//   prediction   = weighted mean and variance of {interp with weight sum w_n} u {extrap_n with w_n},
//                  w_n = 1 / dist(c, n)^2 (the "gravitational" weights).
// The derivative at a tested point is the gradient of a weighted least-squares plane through it and
// its own neighbours (Eigen), exact for linear data. (Paper 004 estimates it by evaluating the
// averaging model at a point epsilon beyond the neighbour; with inverse-distance weights that
// limit does not depend on the direction, so we fit the slope instead.) Distances are Manhattan on
// scaled coordinates. So linear data are predicted exactly with variance 0 inside the samples, and
// the variance grows with the distance outside them, where the average and projections disagree.
#include <memory>
#include <span>
#include <vector>

#include "sadsl/tune/knobs/normal.hpp"

namespace sadsl::knobs {

enum class neighbourhood {
  k_nearest,  // the 2 x dimensions nearest points (paper 004 section 5.1.2)
  gabriel,    // points with no third point inside the sphere spanned by the pair (section 7.2)
};

class regression {
 public:
  /// points[i] are scaled coordinates (all the same dimension), values[i] the measurement there.
  regression(std::vector<std::vector<double>> points, std::vector<double> values, neighbourhood kind);
  ~regression();
  regression(regression&&) noexcept;
  regression& operator=(regression&&) noexcept;

  /// The predicted distribution at `point`; exact (variance 0) at a tested point.
  normal predict(std::span<const double> point) const;
  /// The estimated gradient at tested point `sample` (one entry per dimension).
  std::vector<double> gradient(std::size_t sample) const;
  std::size_t samples() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Manhattan distance between two coordinate vectors of equal length.
double manhattan(std::span<const double> a, std::span<const double> b);

}  // namespace sadsl::knobs
