// pow2_divisor: the largest power of two dividing an integer, at most a cap (a packing factor),
// its value on integers, its errors, and the interpreter, scalar, AVX2 and AVX-512 code agreeing
// bit for bit on any input (fractions, negative, huge, infinite and NaN values included).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "compiled_rows.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/interpreter.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace {

// The largest 2^j <= cap dividing x, by trial (every power of two divides 0).
double by_trial(std::int64_t x, double cap) {
  double best = 1;
  for (double w = 2; w <= cap; w *= 2)
    if (x % static_cast<std::int64_t>(w) == 0) best = w;
  return best;
}

// Every pair of `special` values, then 1001 pairs of random integers, x in [x_lo, x_hi] and y in
// [1, 4096] (an odd count: the batch's tail runs one point at a time).
std::vector<double> point_pairs(const std::vector<double>& special, unsigned seed, int x_lo, int x_hi) {
  std::vector<double> points;
  for (double a : special)
    for (double b : special) points.insert(points.end(), {a, b});
  std::mt19937_64 random(seed);
  for (int n = 0; n < 1001; ++n)
    points.insert(points.end(), {double(std::uniform_int_distribution<int>(x_lo, x_hi)(random)),
                                 double(std::uniform_int_distribution<int>(1, 4096)(random))});
  return points;
}

}  // namespace

TEST_CASE("pow2_divisor is the largest power of two dividing an integer, at most its cap", "[expr]") {
  expr x = expr::parameter(0, "x");
  std::mt19937_64 random(11);
  for (double cap : {1.0, 2.0, 16.0, 512.0, 0x1p20, 0x1p51}) {
    expr e = pow2_divisor(x, expr(cap));
    for (std::int64_t v = -3000; v <= 3000; ++v) {
      double point[] = {static_cast<double>(v)};
      REQUIRE(evaluate(e, point) == by_trial(v, cap));
    }
    for (int n = 0; n < 2000; ++n) {  // up to 2^52 - 1, with many trailing zeros
      std::int64_t v = static_cast<std::int64_t>(random() >> 12) >> std::uniform_int_distribution<int>(0, 50)(random);
      v <<= std::uniform_int_distribution<int>(0, 51)(random);
      v &= (std::int64_t{1} << 52) - 1;
      double point[] = {static_cast<double>(v)};
      REQUIRE(evaluate(e, point) == by_trial(v, cap));
    }
  }
  CHECK(pow2_divisor(x, expr(1)).is_constant(1));
  CHECK(pow2_divisor(expr(96), expr(16)).is_constant(16));
  CHECK(pow2_divisor(expr(96), expr(512)).is_constant(32));
  CHECK(pow2_divisor(x, expr(16)).is_integral());
  CHECK(to_string(pow2_divisor(x * expr(3), expr(16))) == "pow2_divisor(x * 3, 16)");
  CHECK_THROWS_WITH(pow2_divisor(x, expr(12)),
                    "pow2_divisor(x, 12): the cap must be a constant power of two in [1, 2^51]");
  CHECK_THROWS_WITH(pow2_divisor(x, x), "pow2_divisor(x, x): the cap must be a constant power of two in [1, 2^51]");
  CHECK_THROWS_WITH(pow2_divisor(x, expr(0x1p52)),
                    "pow2_divisor(x, 4503599627370496): the cap must be a constant power of two in [1, 2^51]");
}

TEST_CASE("pow2_divisor: interpreter and compiled code (each path this machine runs) agree bit for bit on any input", "[expr][jit]") {
  design_model m = testing::sized_model("pow2_divisor_test", {"X", "Y"});
  expr x = m.param("X"), y = m.param("Y");
  module_latency pe;
  pe.name = "PE";
  pe.main = make_leaf(pow2_divisor(x, expr(16)) + pow2_divisor(x * y, expr(0x1p51)));
  m.modules = {pe};
  m.dsp = min(pow2_divisor(x, expr(512)), pow2_divisor(y, expr(512)));
  m.bram18k = expr(1) / pow2_divisor(y - x, expr(2));
  m.uram = 0;
  m.lut = pow2_divisor(x / y, expr(8));  // fractions
  m.offchip_bytes = 0;
  interpreter reference(m);
  device_limits limits{1e9, 1e9, 1e9};

  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> special = {0, -0.0, 1, -1, 2.5, -7.25, 1e-300, 0x1p52, 0x1p53 + 2, -0x1p52 - 6, 1e300, inf, -inf, nan};
  std::vector<double> points = point_pairs(special, 5, -4096, 4096);
  std::size_t count = points.size() / 2;
  std::vector<metrics> expected(count);
  std::vector<double> reference_points = points;
  reference.evaluate_batch(count, reference_points, expected, limits);
  CHECK(expected[count - 1].latency >= 2);
  CHECK(testing::compiled_rows_differing(m, "pow2_divisor", points, expected, limits).empty());
}

TEST_CASE("quotients by powers of two computed at run time: products by the reciprocal, bit for bit the quotients on any input",
          "[expr][jit]") {
  design_model m = testing::sized_model("pow2_quotients_test", {"X", "Y"});
  expr x = m.param("X"), y = m.param("Y");
  expr p = pow2_divisor(y, expr(16)), q = pow2_divisor(x, expr(8));
  module_latency pe;
  pe.name = "PE";
  pe.main = make_leaf(x / p + ceil_div(x * y, max(p, q)) + floor_div(y, min(p, expr(4)) * q));
  m.modules = {pe};
  m.dsp = expr(1) / max(q, expr(0.5));  // a power of two below 1
  m.bram18k = ceil_div(x, p * p * q);
  m.uram = 0;
  m.lut = x / (y - x);  // not a power of two: a division
  m.offchip_bytes = 0;
  std::string source = emit_model(m).source;
  CHECK(source.find("sadsl_pow2_reciprocal(") != std::string::npos);
  interpreter reference(m);
  device_limits limits{1e9, 1e9, 1e9};
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> special = {0, -0.0, 1, -1, 2.5, -7.25, 1e-300, 4.9e-324, 0x1p52, -0x1p52 - 6, 1e300, -1e308, inf, -inf, nan};
  std::vector<double> points = point_pairs(special, 9, -100000, 100000);
  std::size_t count = points.size() / 2;
  std::vector<metrics> expected(count);
  std::vector<double> reference_points = points;
  reference.evaluate_batch(count, reference_points, expected, limits);
  CHECK(testing::compiled_rows_differing(m, "pow2_quotients", points, expected, limits).empty());
}
