// Summations in the model IR: closed forms where the body is a polynomial in the index, loops
// elsewhere, and the interpreter, the scalar, AVX2 and AVX-512 code agreeing bit for bit on a
// model whose latency is a triangular nest of tiles.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/loop_tree.hpp"
#include "compiled_rows.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace {

expr sum_param(std::size_t i, const char* name) { return expr::parameter(i, name); }

// sum over v = lo..hi of f(v), one term at a time.
template <class F>
double brute_sum(double lo, double hi, F f) {
  double total = 0;
  for (double v = lo; v <= hi; v += 1) total += f(v);
  return total;
}

// The rows (L, H, C, D, M each) as points, and the interpreter's metrics of them.
struct evaluated_rows {
  std::vector<double> points;
  std::vector<metrics> expected;
};
evaluated_rows interpreted(const design_model& m, const std::vector<std::vector<double>>& rows,
                           const device_limits& limits) {
  evaluated_rows out;
  for (const auto& r : rows) out.points.insert(out.points.end(), r.begin(), r.end());
  out.expected.resize(rows.size());
  std::vector<double> reference_points = out.points;
  interpreter(m).evaluate_batch(rows.size(), reference_points, out.expected, limits);
  return out;
}

}  // namespace

TEST_CASE("a sum of a polynomial of degree 3 or less in its index has a closed form, exact on every range", "[expr][sum]") {
  expr a = sum_param(0, "a"), b = sum_param(1, "b"), c = sum_param(2, "c"), d = sum_param(3, "d");
  expr v = expr::index(0, "v");
  expr lo = a - expr(20), hi = b - expr(10);
  // 2c v^3 - v^2 d + 3v + c, with parameter coefficients.
  expr body = expr(2) * c * v * v * v - v * v * d + expr(3) * v + c;
  expr s = sum(v, lo, hi, body);
  CHECK(s.kind() != op::sum);
  CHECK_FALSE(uses_index(s, 0));
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> value(-40, 60);
  for (int n = 0; n < 500; ++n) {
    std::vector<double> p{double(value(random)), double(value(random)), double(value(random)), double(value(random))};
    double expected = brute_sum(p[0] - 20, p[1] - 10, [&](double x) { return 2 * p[2] * x * x * x - x * x * p[3] + 3 * x + p[2]; });
    INFO("a=" << p[0] << " b=" << p[1] << " c=" << p[2] << " d=" << p[3]);
    REQUIRE(evaluate(s, p) == expected);  // hi < lo included: 0
  }
  // A body without the index: the count of the range (0 when it is empty) times the body.
  expr count = sum(v, a, b, c);
  CHECK(evaluate(count, std::vector<double>{3, 7, 2, 0}) == 10);
  CHECK(evaluate(count, std::vector<double>{7, 3, 2, 0}) == 0);
}

TEST_CASE("a sum of any other body stays a loop, printed with its index and range", "[expr][sum]") {
  expr n = sum_param(0, "N"), t = sum_param(1, "T");
  expr v = expr::index(0, "v");
  // The size of tile v of a loop of N in tiles of T: the last one partial.
  expr s = sum(v, expr(0), ceil_div(n, t) - expr(1), min(t, n - v * t));
  REQUIRE(s.kind() == op::sum);
  CHECK(s.index_id() == 0);
  CHECK(to_string(s) == "sum(v = 0..ceil_div(N, T) - 1, min(T, N - v * T))");
  CHECK(parameters_of(s) == std::vector<std::size_t>{0, 1});
  for (double nv : {1.0, 7.0, 64.0, 100.0})
    for (double tv : {1.0, 3.0, 8.0, 200.0}) CHECK(evaluate(s, std::vector<double>{nv, tv}) == nv);  // the tiles cover N
  // A coefficient that is not integral keeps the loop (a closed form could round otherwise).
  CHECK(sum(v, expr(1), n, v / t).kind() == op::sum);
  // Bounds that are not integers: the integers between them.
  CHECK(evaluate(sum(v, n / expr(2), t / expr(2), min(v, n)), std::vector<double>{3, 9}) == 2 + 3 + 3);
  // A bound that is not finite: NaN, not a hang.
  CHECK(std::isnan(evaluate(s, std::vector<double>{1e308 * 10, 1})));
}

TEST_CASE("a sum over something that is not an index, or with bounds that use its index, is refused", "[expr][sum][errors]") {
  expr n = sum_param(0, "N");
  expr v = expr::index(3, "v");
  CHECK_THROWS_WITH(sum(n, expr(0), n, n), "sum() over \"N\", which is not an index (expr::index)");
  CHECK_THROWS_WITH(sum(v, v - expr(1), n, v * v), "sum() over index v: its bounds (v - 1..N) use the index itself");
  expr inner = sum(v, expr(0), n, min(v, n / expr(2)));
  CHECK_THROWS_WITH(sum(v, expr(0), n, inner), "sum() over index v: its body has a sum or maximum over the same index (id 3); "
                                               "nested sums and maxima need indices of their own");
}

TEST_CASE("nested sums: a triangular nest of tiles", "[expr][sum]") {
  expr n = sum_param(0, "N"), t = sum_param(1, "T");
  expr a = expr::index(0, "a"), b = expr::index(1, "b");
  expr tiles = ceil_div(n, t);
  // For every tile a, every tile b >= a costs its rows below the diagonal tile's start.
  expr inner = sum(b, a, tiles - expr(1), min(t, n - b * t) * (n - a * t));
  expr outer = sum(a, expr(0), tiles - expr(1), inner);
  REQUIRE(outer.kind() == op::sum);
  CHECK(uses_index(inner, 0));
  CHECK_FALSE(uses_index(outer, 0));
  for (double nv : {5.0, 32.0, 33.0})
    for (double tv : {1.0, 4.0, 7.0}) {
      double k = std::ceil(nv / tv), expected = 0;
      for (double x = 0; x < k; ++x)
        for (double y = x; y < k; ++y) expected += std::min(tv, nv - y * tv) * (nv - x * tv);
      CHECK(evaluate(outer, std::vector<double>{nv, tv}) == expected);
    }
  // The loop-tree form lowers to the same sum.
  loop_tree tree = make_summation(a, expr(0), tiles - expr(1), make_summation(b, a, tiles - expr(1), make_leaf(min(t, n - b * t) * (n - a * t))));
  CHECK(cost(tree).same_as(outer));
}

TEST_CASE("a model with sums: interpreter and compiled code (each path this machine runs) agree bit for bit", "[expr][sum][jit]") {
  design_model m = testing::sized_model("summation_test", {"N", "T", "S"});
  expr n = m.param("N"), t = m.param("T"), s = m.param("S");
  expr a = expr::index(0, "a"), b = expr::index(1, "b");
  expr tiles = ceil_div(n, t);
  // Per tile pair: a pipelined row of the partial tile, divided by S (not integral: a loop), with
  // a term that is the same in every iteration (computed in the loop's scope, then out of it).
  expr body = ceil(min(t, n - b * t) / s) + ceil_div(n, s) + expr(3) * (b - a);
  module_latency pe;
  pe.name = "PE";
  pe.main = make_summation(a, expr(0), tiles - expr(1), make_summation(b, a, tiles - expr(1), make_leaf(body)));
  module_latency in;
  in.name = "in";
  in.role = module_role::input;
  in.main = make_leaf(ceil_div(n, s) * tiles);
  in.prologue = make_leaf(sum(a, expr(1), t, a * s));  // a closed form
  m.modules = {pe, in};
  m.dsp = sum(a, n - t, n + t, max(a, s));  // a loop whose range can be negative
  m.bram18k = ceil_div(n, s);
  m.uram = 0;
  m.lut = n;
  m.offchip_bytes = ceil_div(n, s) * expr(4);
  CHECK(testing::sized_rows_differing(m, "summation").empty());
}

TEST_CASE("a sum of ceil or floor of c + index x d over m: closed form where exact, bit for bit the loop's value", "[expr][sum][jit]") {
  design_model m = testing::sized_model("affine_sum_test", {"L", "H", "C", "D", "M"});
  expr lo = m.param("L"), hi = m.param("H"), c = m.param("C"), d = m.param("D"), div = m.param("M");
  expr i = expr::index(0, "i");
  // The forms the emitter recognises (either order of the + and the x, no constant, no slope)
  // and one it does not (a difference: a loop), each in a metric of its own.
  module_latency pe;
  pe.name = "PE";
  pe.main = make_leaf(sum(i, lo, hi, ceil_div(c + i * d, div)));
  m.modules = {pe};
  m.dsp = sum(i, lo, hi, floor_div(d * i + c, div));
  m.bram18k = sum(i, lo, hi, ceil_div(i * d, div));
  m.uram = sum(i, lo, hi, floor_div(c + i, div));
  m.lut = sum(i, lo, hi, ceil_div(i * d - c, div));
  // Constant c and m (a FIFO chain's storage, ceil_div(2 + h x step, 512)): the vector forms'
  // check leaves out their conditions, which the emitter has checked.
  m.offchip_bytes = sum(i, lo, hi, ceil_div(2 + i * d, 512));
  std::string source = emit_cpp(m);
  CHECK(source.find("sadsl_affine_sum(") != std::string::npos);
  CHECK(source.find("sadsl_affine_sum_avx2(") != std::string::npos);
  CHECK(source.find("sadsl_affine_sum_avx512(") != std::string::npos);
  CHECK(source.find("sadsl_affine_sum_exact_settled_avx2(") != std::string::npos);
  CHECK(source.find("sadsl_affine_sum_exact_settled_avx512(") != std::string::npos);

  std::mt19937_64 random(2027);
  auto pick = [&](int a, int b) { return double(std::uniform_int_distribution<int>(a, b)(random)); };
  std::vector<std::vector<double>> rows;
  for (int n = 0; n < 1200; ++n)  // exact: the closed form
    rows.push_back({pick(0, 60), pick(-3, 500), pick(0, 1000000), pick(0, 100000), pick(1, 5000)});
  // Outside the closed form's conditions: the loop, with its own rounding and NaN.
  rows.push_back({0, 40, -7, 3, 5});                 // c < 0
  rows.push_back({0, 40, 7, -3, 5});                 // d < 0
  rows.push_back({2.5, 40, 7, 3, 5});                // lo not an integer
  rows.push_back({0, 40.5, 7, 3, 5});                // hi not an integer
  rows.push_back({0, 40, 7.25, 3, 5});               // c not an integer
  rows.push_back({0, 40, 7, 3, 0});                  // m = 0: infinite terms
  rows.push_back({0, 40, 7, 3, 0.75});               // m < 1
  rows.push_back({0, 900, 3, 1099511627776.0, 7});   // c + hi d beyond 2^50 / (hi + 1)
  rows.push_back({0, 1e308 * 10, 1, 1, 1});          // a bound that is not finite: NaN
  rows.push_back({0, 30, std::nan(""), 1, 1});       // NaN operands
  rows.push_back({5, 4, 1, 1, 1});                   // an empty range
  rows.push_back({3, 3, 0, 0, 1});
  device_limits limits{1e18, 1e18, 1e18};
  auto [points, expected] = interpreted(m, rows, limits);
  // The interpreter is the loop; check it against counting one by one on a few rows.
  for (std::size_t r : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
    CHECK(expected[r].latency == brute_sum(rows[r][0], rows[r][1], [&](double v) { return std::ceil((rows[r][2] + v * rows[r][3]) / rows[r][4]); }));
    CHECK(expected[r].offchip_bytes == brute_sum(rows[r][0], rows[r][1], [&](double v) { return std::ceil((2 + v * rows[r][3]) / 512); }));
  }

  for (std::size_t r : testing::compiled_rows_differing(m, "affine_sum", points, expected, limits))
    FAIL_CHECK("row " << r << ": L=" << rows[r][0] << " H=" << rows[r][1] << " C=" << rows[r][2] << " D=" << rows[r][3]
                      << " M=" << rows[r][4]);
}

TEST_CASE("closed-form sums of one c, d and m run in one loop, each bit for bit its own value", "[expr][sum][jit]") {
  design_model m = testing::sized_model("joint_sums_test", {"L", "H", "C", "D", "M"});
  expr lo = m.param("L"), hi = m.param("H"), c = m.param("C"), d = m.param("D"), div = m.param("M");
  expr i = expr::index(0, "i");
  auto term = [&](const expr& index) { return ceil_div(c + index * d, div); };
  // Three sums of one term over different ranges (one loop for the three), one of the floor
  // (a sum alone), and two of the constant c and m of a FIFO chain's storage (a loop for two).
  module_latency pe;
  pe.name = "PE";
  pe.main = make_leaf(sum(i, lo, hi, term(i)));
  m.modules = {pe};
  m.dsp = sum(i, expr(0), hi, term(i));
  m.bram18k = sum(i, lo, hi * 3 + 7, term(i));
  m.lut = sum(i, lo, hi, floor_div(c + i * d, div));
  m.uram = sum(i, lo, hi, ceil_div(2 + i * d, 512));
  m.offchip_bytes = sum(i, expr(1), hi + lo, ceil_div(2 + i * d, 512));
  std::string source = emit_cpp(m);
  for (const char* isa : {"avx2", "avx512"}) {
    CHECK(source.find(std::string("sadsl_affine_sums_") + isa + "<3>(") != std::string::npos);
    CHECK(source.find(std::string("sadsl_affine_sums_") + isa + "<2>(") != std::string::npos);
  }
  std::string scalar = source.substr(source.find("inline void sadsl_evaluate("));
  CHECK(scalar.substr(0, scalar.find("\n}\n")).find("sadsl_affine_sums") == std::string::npos);

  std::mt19937_64 random(2028);
  auto pick = [&](int a, int b) { return double(std::uniform_int_distribution<int>(a, b)(random)); };
  std::vector<std::vector<double>> rows;
  for (int n = 0; n < 1200; ++n)  // exact: the closed forms
    rows.push_back({pick(0, 60), pick(-3, 500), pick(0, 1000000), pick(0, 100000), pick(1, 5000)});
  // One of the three (the longest range) beyond the closed form's conditions, the others within.
  rows.push_back({0, 6000000, 1, 1, 3});
  rows.push_back({0, 40, -7, 3, 5});      // c < 0: each a loop
  rows.push_back({2.5, 40, 7, 3, 5});     // lo not an integer
  rows.push_back({0, 40, 7, 3, 0});       // m = 0: infinite terms
  rows.push_back({0, 1e308 * 10, 1, 1, 1});  // a bound that is not finite: NaN
  rows.push_back({5, 4, 1, 1, 1});        // an empty range (not the others)
  rows.push_back({3, -1, 0, 0, 1});       // every range empty but the second
  device_limits limits{1e18, 1e18, 1e18};
  auto [points, expected] = interpreted(m, rows, limits);
  for (std::size_t r : {std::size_t{0}, std::size_t{1}}) {
    auto ceil_term = [&](double v) { return std::ceil((rows[r][2] + v * rows[r][3]) / rows[r][4]); };
    CHECK(expected[r].dsp == brute_sum(0, rows[r][1], ceil_term));
    CHECK(expected[r].bram18k == brute_sum(rows[r][0], rows[r][1] * 3 + 7, ceil_term));
  }

  for (std::size_t r : testing::compiled_rows_differing(m, "joint_sums", points, expected, limits))
    FAIL_CHECK("row " << r << ": L=" << rows[r][0] << " H=" << rows[r][1] << " C=" << rows[r][2] << " D=" << rows[r][3]
                      << " M=" << rows[r][4]);
}
