// Normal-distribution arithmetic of derived features (paper 004 section 6).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sadsl/error.hpp"
#include "sadsl/tune/knobs/cutoff.hpp"
#include "sadsl/tune/knobs/feature.hpp"

using namespace sadsl::knobs;
using Catch::Matchers::Contains;

TEST_CASE("sums and differences of independent normals add variances") {
  const normal a{10, 4}, b{3, 9};
  CHECK((a + b).mean == 13);
  CHECK((a + b).variance == 13);
  CHECK((a - b).mean == 7);
  CHECK((a - b).variance == 13);
  CHECK((a + exactly(5)).variance == 4);
}

TEST_CASE("products have the exact mean and variance of independent factors") {
  const normal a{10, 4}, b{3, 9};
  // Var(AB) = mA^2 vB + mB^2 vA + vA vB = 100*9 + 9*4 + 4*9.
  CHECK((a * b).mean == 30);
  CHECK((a * b).variance == 900 + 36 + 36);
  CHECK((a * exactly(2)).variance == 16);  // scaling by a constant scales sd
}

TEST_CASE("quotients use the first-order (delta method) moments") {
  const normal a{10, 4}, b{2, 0.25};
  const normal q = a / b;
  CHECK(q.mean == 5);
  CHECK(q.variance == Approx(4.0 / 4 + 25 * 0.25 / 4));
  CHECK((a / exactly(2)).variance == 1);
  CHECK(std::isinf((a / normal{0, 1}).variance));
}

TEST_CASE("probabilities compare normals with limits and with uncertain cutoffs") {
  CHECK(probability_below(normal{0, 1}, 1.0) == Approx(0.841345).epsilon(1e-5));
  CHECK(probability_above(normal{0, 1}, 1.0) == Approx(0.158655).epsilon(1e-5));
  CHECK(probability_below(normal{5, 0}, 6.0) == 1.0);
  CHECK(probability_below(normal{7, 0}, 6.0) == 0.0);
  CHECK(probability_below(normal{3, 9}, 3.0) == 0.5);
  // X ~ N(0, 3), cutoff ~ N(2, 1): P(X < C) = Phi(2 / sqrt(4)) = Phi(1).
  CHECK(probability_below(normal{0, 3}, normal{2, 1}) == Approx(0.841345).epsilon(1e-5));
  CHECK(probability_above(normal{0, std::numeric_limits<double>::infinity()}, 10) == 0.5);
}

TEST_CASE("derived features evaluate on measured values and on predictions") {
  const std::vector<std::string> declared{"ops", "compute", "drain"};
  const feature f = sensor("ops") / (sensor("compute") + sensor("drain")) - 1.0;
  CHECK(f.to_string() == "ops / (compute + drain) - 1");
  CHECK(f.sensors() == std::vector<std::string>{"ops", "compute", "drain"});
  const bound_feature b(f, declared, "objective");
  CHECK(b.evaluate(std::vector<double>{100, 15, 5}) == 4.0);
  CHECK(std::isnan(b.evaluate(std::vector<double>{100, std::nan(""), 5})));

  const std::vector<normal> predicted{exactly(100), normal{15, 4}, normal{5, 0}};
  const normal n = b.evaluate(predicted);
  CHECK(n.mean == 4.0);
  CHECK(n.variance == Approx(100.0 * 100 * 4 / std::pow(20, 4)));  // delta method through the sum
}

TEST_CASE("printing keeps the parentheses that change the meaning") {
  const feature a = sensor("a"), b = sensor("b"), c = sensor("c");
  CHECK((a - (b - c)).to_string() == "a - (b - c)");
  CHECK(((a - b) - c).to_string() == "a - b - c");
  CHECK((a * (b + c)).to_string() == "a * (b + c)");
  CHECK((a / (b * c)).to_string() == "a / (b * c)");
  CHECK((2.5 * a).to_string() == "2.5 * a");
}

TEST_CASE("a feature reading an undeclared sensor is reported with its role") {
  const feature f = sensor("cycles") + sensor("cylces");
  CHECK_THROWS_WITH(
      bound_feature(f, {"cycles"}, "objective 'cycles + cylces'"),
      "objective 'cycles + cylces' reads sensor 'cylces', which is not declared (declared sensors: cycles)");
  CHECK_THROWS_WITH(sensor(""), "a sensor name must not be empty");
}

TEST_CASE("proxy cutoffs follow the passed and failed values (paper 004 Figure 3)") {
  CHECK_FALSE(failure_cutoff({1, 2, 3}, {}).has_value());
  // No overlap: the lowest failed value, exactly.
  const normal clean = *failure_cutoff({10, 20, 30}, {45, 40, 60});
  CHECK(clean.mean == 40);
  CHECK(clean.variance == 0);
  // Overlap: the region runs from the lowest failure (25) to the lowest failure above the highest
  // pass (40): values 25, 30, 35, 40 -> mean 32.5, variance 31.25.
  const normal mixed = *failure_cutoff({10, 20, 30, 35}, {25, 40, 60});
  CHECK(mixed.mean == Approx(32.5));
  CHECK(mixed.variance == Approx(31.25));
  // Every failure below some pass: up to the highest value seen.
  const normal inverted = *failure_cutoff({10, 50}, {20, 30});
  CHECK(inverted.mean == Approx((20 + 30 + 50) / 3.0));
  // Failures without any pass: from the lowest failure, which is also the lowest above "no pass".
  CHECK(failure_cutoff({}, {7, 9})->mean == 7);
}
