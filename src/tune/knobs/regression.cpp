// Probabilistic regression of paper 004 section 5. Eigen lives only in this translation unit.
#include "sadsl/tune/knobs/regression.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "sadsl/error.hpp"

namespace sadsl::knobs {

double manhattan(std::span<const double> a, std::span<const double> b) {
  SADSL_INTERNAL_ASSERT(a.size() == b.size(), "distance between points of different dimension");
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum;
}

namespace {
struct neighbour {
  Eigen::Index sample;
  double distance;  // Manhattan
};
}  // namespace

struct regression::impl {
  Eigen::MatrixXd points;  // one row per tested point
  Eigen::VectorXd values;
  Eigen::MatrixXd gradients;  // one row per tested point
  neighbourhood kind;

  double distance(const Eigen::VectorXd& a, Eigen::Index sample) const {
    return (points.row(sample).transpose() - a).cwiseAbs().sum();
  }

  // The neighbours of `at` among the tested points other than `skip` (-1: none skipped).
  std::vector<neighbour> neighbours(const Eigen::VectorXd& at, Eigen::Index skip) const {
    std::vector<neighbour> all;
    for (Eigen::Index s = 0; s < points.rows(); ++s)
      if (s != skip) all.push_back({s, distance(at, s)});
    auto closer = [](const neighbour& a, const neighbour& b) {
      return a.distance < b.distance || (a.distance == b.distance && a.sample < b.sample);
    };
    if (kind == neighbourhood::gabriel) return gabriel(at, std::move(all), skip, closer);
    const std::size_t k = std::min<std::size_t>(all.size(), 2 * static_cast<std::size_t>(points.cols()));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k), all.end(), closer);
    all.resize(k);
    return all;
  }

  // Gabriel-like graph: s is a neighbour of `at` unless some third tested point lies strictly
  // inside the sphere whose diameter is the segment at-s (paper 004 section 7.2, after [13]).
  template <class Closer>
  std::vector<neighbour> gabriel(const Eigen::VectorXd& at, std::vector<neighbour> all, Eigen::Index skip,
                                 Closer closer) const {
    std::vector<neighbour> kept;
    for (const neighbour& n : all) {
      const Eigen::VectorXd centre = (at + points.row(n.sample).transpose()) / 2;
      const double radius2 = (at - centre).squaredNorm();
      bool blocked = false;
      for (Eigen::Index t = 0; t < points.rows() && !blocked; ++t)
        blocked = t != skip && t != n.sample && (points.row(t).transpose() - centre).squaredNorm() < radius2;
      if (!blocked) kept.push_back(n);
    }
    std::sort(kept.begin(), kept.end(), closer);
    return kept;
  }

  // Gradient of the weighted least-squares plane through sample i and its neighbours (weights
  // 1/distance^2). The minimum-norm solution leaves directions with no data flat.
  Eigen::VectorXd fit_gradient(Eigen::Index i) const {
    const Eigen::VectorXd at = points.row(i).transpose();
    std::vector<neighbour> near = neighbours(at, i);
    std::erase_if(near, [](const neighbour& n) { return n.distance <= 0; });
    if (near.empty()) return Eigen::VectorXd::Zero(points.cols());
    Eigen::MatrixXd a(static_cast<Eigen::Index>(near.size()), points.cols());
    Eigen::VectorXd b(static_cast<Eigen::Index>(near.size()));
    for (Eigen::Index r = 0; r < a.rows(); ++r) {
      const neighbour& n = near[static_cast<std::size_t>(r)];
      const double root_weight = 1.0 / n.distance;
      a.row(r) = root_weight * (points.row(n.sample) - points.row(i));
      b(r) = root_weight * (values(n.sample) - values(i));
    }
    return a.completeOrthogonalDecomposition().solve(b);
  }

  // The local linear average at `at`: the value at `at` of the plane fitted to the neighbours by
  // least squares with inverse-distance weights, kept inside the neighbours' range of values so
  // that, like a plain average, it never extrapolates (paper 004 section 5.1, Figure 4). It equals
  // a linear function between its samples; with too few neighbours to fit a plane (fewer than
  // dimensions + 1, or all in a line) it is the plain inverse-distance weighted average.
  double local_average(const Eigen::VectorXd& at, const std::vector<neighbour>& near) const {
    const auto rows = static_cast<Eigen::Index>(near.size());
    Eigen::MatrixXd a(rows, points.cols() + 1);
    Eigen::VectorXd b(rows);
    double weights = 0, plain = 0, low = values(near.front().sample), high = low;
    for (Eigen::Index r = 0; r < rows; ++r) {
      const neighbour& n = near[static_cast<std::size_t>(r)];
      const double v = values(n.sample), root_weight = std::sqrt(1.0 / n.distance);
      a(r, 0) = root_weight;
      a.row(r).tail(points.cols()) = root_weight * (points.row(n.sample) - at.transpose());
      b(r) = root_weight * v;
      weights += 1.0 / n.distance, plain += v / n.distance;
      low = std::min(low, v), high = std::max(high, v);
    }
    const auto fit = a.completeOrthogonalDecomposition();
    if (fit.rank() < a.cols()) return plain / weights;
    return std::clamp(Eigen::VectorXd(fit.solve(b))(0), low, high);
  }

  normal predict(const Eigen::VectorXd& at) const {
    const std::vector<neighbour> near = neighbours(at, -1);
    SADSL_INTERNAL_ASSERT(!near.empty(), "regression without tested points");
    if (near.front().distance <= 0) return exactly(values(near.front().sample));
    // The averaged value and one projection per neighbour (weights 1/d^2); the averaged value
    // weighs as much as all projections together.
    double projection_weights = 0;
    std::vector<std::pair<double, double>> weighted;  // (weight, value)
    for (const neighbour& n : near) {
      const double w = 1.0 / (n.distance * n.distance);
      const double step = gradients.row(n.sample).dot(at - points.row(n.sample).transpose());
      weighted.emplace_back(w, values(n.sample) + step);
      projection_weights += w;
    }
    weighted.emplace_back(projection_weights, local_average(at, near));
    double total = 0, mean = 0;
    for (const auto& [w, v] : weighted) total += w, mean += w * v;
    mean /= total;
    double variance = 0;
    for (const auto& [w, v] : weighted) variance += w * (v - mean) * (v - mean);
    return {mean, variance / total};
  }
};

regression::regression(std::vector<std::vector<double>> points, std::vector<double> values, neighbourhood kind)
    : impl_(std::make_unique<impl>()) {
  SADSL_INTERNAL_ASSERT(!points.empty() && points.size() == values.size(), "regression needs one value per point");
  const auto dims = static_cast<Eigen::Index>(points.front().size());
  impl_->kind = kind;
  impl_->points.resize(static_cast<Eigen::Index>(points.size()), dims);
  impl_->values.resize(static_cast<Eigen::Index>(values.size()));
  for (Eigen::Index i = 0; i < impl_->points.rows(); ++i) {
    const auto& p = points[static_cast<std::size_t>(i)];
    SADSL_INTERNAL_ASSERT(static_cast<Eigen::Index>(p.size()) == dims, "regression points of mixed dimension");
    impl_->points.row(i) = Eigen::Map<const Eigen::RowVectorXd>(p.data(), dims);
    impl_->values(i) = values[static_cast<std::size_t>(i)];
  }
  impl_->gradients.resize(impl_->points.rows(), dims);
  for (Eigen::Index i = 0; i < impl_->points.rows(); ++i) impl_->gradients.row(i) = impl_->fit_gradient(i).transpose();
}

regression::~regression() = default;
regression::regression(regression&&) noexcept = default;
regression& regression::operator=(regression&&) noexcept = default;

normal regression::predict(std::span<const double> point) const {
  SADSL_INTERNAL_ASSERT(static_cast<Eigen::Index>(point.size()) == impl_->points.cols(),
                        "prediction point of wrong dimension");
  return impl_->predict(Eigen::Map<const Eigen::VectorXd>(point.data(), static_cast<Eigen::Index>(point.size())));
}

std::vector<double> regression::gradient(std::size_t sample) const {
  const Eigen::VectorXd g = impl_->gradients.row(static_cast<Eigen::Index>(sample)).transpose();
  return {g.data(), g.data() + g.size()};
}

std::size_t regression::samples() const { return static_cast<std::size_t>(impl_->points.rows()); }

}  // namespace sadsl::knobs
