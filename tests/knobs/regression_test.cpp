// The probabilistic regression on functions of known shape (paper 004 section 5).
#include <catch2/catch.hpp>

#include <vector>

#include "sadsl/tune/knobs/regression.hpp"

using namespace sadsl::knobs;

namespace {
regression fit_1d(const std::vector<double>& xs, double (*f)(double), neighbourhood kind = neighbourhood::k_nearest) {
  std::vector<std::vector<double>> points;
  std::vector<double> values;
  for (double x : xs) points.push_back({x}), values.push_back(f(x));
  return regression(points, values, kind);
}

normal at(const regression& r, double x) { return r.predict(std::vector<double>{x}); }
normal at(const regression& r, double x, double y) { return r.predict(std::vector<double>{x, y}); }

double line(double x) { return 3 * x + 1; }
double parabola(double x) { return x * x; }

regression grid_2d(double (*f)(double, double), int n) {
  std::vector<std::vector<double>> points;
  std::vector<double> values;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) points.push_back({double(i), double(j)}), values.push_back(f(i, j));
  return regression(points, values, neighbourhood::k_nearest);
}
double plane(double x, double y) { return 2 * x - 5 * y + 7; }
}  // namespace

TEST_CASE("1-D linear: exact gradients, exact mean and no variance between samples") {
  const regression r = fit_1d({0, 2, 4, 6, 8, 10}, line);
  for (std::size_t i = 0; i < r.samples(); ++i) CHECK(r.gradient(i)[0] == Approx(3));
  for (double x : {0.5, 1.0, 3.3, 5.0, 7.9, 9.5}) {
    CHECK(at(r, x).mean == Approx(line(x)));
    CHECK(at(r, x).variance == Approx(0).margin(1e-9));
  }
  CHECK(at(r, 4).mean == line(4));
  CHECK(at(r, 4).variance == 0);
}

TEST_CASE("1-D linear: variance grows away from the samples") {
  const regression r = fit_1d({0, 2, 4, 6, 8, 10}, line);
  double previous = 0;
  for (double x : {10.5, 11.0, 12.0, 14.0, 20.0}) {
    const normal n = at(r, x);
    CHECK(n.variance > previous);
    previous = n.variance;
    // Between the safe average (which cannot leave the data's range) and the exact projection.
    CHECK(n.mean < line(x));
    CHECK(n.mean > line(10));
  }
  CHECK(at(r, -3).variance > at(r, -1).variance);
}

TEST_CASE("2-D linear, scattered samples: exact mean inside, growing variance outside") {
  const std::vector<std::vector<double>> points{{0, 0}, {3, 1}, {1, 4}, {4, 4}, {2, 2}, {0.5, 2.5}, {3.5, 2.5}};
  std::vector<double> values;
  for (const auto& p : points) values.push_back(plane(p[0], p[1]));
  const regression r(points, values, neighbourhood::k_nearest);
  CHECK(at(r, 2, 3).mean == Approx(plane(2, 3)));
  CHECK(at(r, 1.5, 1.5).mean == Approx(plane(1.5, 1.5)));
  CHECK(at(r, 7, 7).variance > at(r, 5, 5).variance);
  CHECK(at(r, 5, 5).variance > 0);
}

TEST_CASE("1-D curved: uncertainty is larger in wide gaps and in the middle of gaps") {
  const regression r = fit_1d({0, 1, 2, 3, 7, 8}, parabola);
  CHECK(at(r, 5).variance > at(r, 1.5).variance);  // gap of 4 versus gap of 1
  CHECK(at(r, 5).variance > at(r, 3.5).variance);  // middle versus edge of the gap
  CHECK(at(r, 1.5).variance > 0);
  // The projections from both sides bend the prediction towards the curve, below the chord.
  CHECK(at(r, 5).mean < (parabola(3) + parabola(7)) / 2);
}

TEST_CASE("2-D linear on a grid: exact gradients, exact means inside the grid") {
  const regression r = grid_2d(plane, 5);
  for (std::size_t i = 0; i < r.samples(); ++i) {
    CHECK(r.gradient(i)[0] == Approx(2));
    CHECK(r.gradient(i)[1] == Approx(-5));
  }
  for (double x : {0.5, 1.25, 2.9, 3.5})
    for (double y : {0.1, 0.5, 2.7, 3.95}) {
      CHECK(at(r, x, y).mean == Approx(plane(x, y)));
      CHECK(at(r, x, y).variance == Approx(0).margin(1e-9));
    }
}

TEST_CASE("2-D linear: variance grows away from the sampled square") {
  const regression r = grid_2d(plane, 5);
  double previous = 0;
  for (double d : {0.5, 1.0, 2.0, 4.0}) {
    const double v = at(r, 4 + d, 4 + d).variance;
    CHECK(v > previous);
    previous = v;
  }
}

TEST_CASE("the Gabriel neighbourhood brackets a point that k-nearest sees from one side") {
  // Samples crowd on the right of x = 3: the two nearest are both right of it, so the averaged
  // value is biased; the Gabriel neighbours are 0 and 4, which bracket it.
  const std::vector<double> xs{0, 4, 4.5, 5, 5.5};
  const regression nearest = fit_1d(xs, line, neighbourhood::k_nearest);
  const regression gabriel = fit_1d(xs, line, neighbourhood::gabriel);
  CHECK(at(gabriel, 3).mean == Approx(line(3)));
  CHECK(at(gabriel, 3).variance == Approx(0).margin(1e-9));
  CHECK(at(nearest, 3).mean > line(3) + 0.1);
  CHECK(at(nearest, 3).variance > 0.01);
}

TEST_CASE("a single sample predicts its own value everywhere, with a flat gradient") {
  const regression r = regression({{1.0, 2.0}}, {5.0}, neighbourhood::k_nearest);
  CHECK(r.gradient(0) == std::vector<double>{0, 0});
  CHECK(at(r, 3, 3).mean == Approx(5));
  CHECK(manhattan(std::vector<double>{1, 2}, std::vector<double>{3, -1}) == 5);
}
