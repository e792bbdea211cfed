// Maxima over an index in the model IR (model::maximum): the largest of 0 and the body over a
// range, evaluated term by term; the interpreter, the scalar, AVX2 and AVX-512 code agreeing bit
// for bit, NaN lanes and empty ranges included; the tuner's relaxation and bound taking it.
#include <catch2/catch.hpp>
#include <cmath>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/loop_tree.hpp"
#include "compiled_rows.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace maximum_test {

// The largest of 0 and f(v) over v = lo..hi, one term at a time.
template <class F>
double brute_maximum(double lo, double hi, F f) {
  double most = 0;
  for (double v = std::ceil(lo); v <= std::floor(hi); v += 1) most = std::max(most, f(v));
  return most;
}

}  // namespace maximum_test

using maximum_test::brute_maximum;

TEST_CASE("a maximum over an index: the largest of 0 and its terms, 0 over an empty range", "[expr][maximum]") {
  expr n = expr::parameter(0, "N"), t = expr::parameter(1, "T");
  expr p = expr::index(0, "p");
  // A chain's latest end: PE p starts p cycles late and works ceil((N - p T) / 3) cycles, a
  // parabola's worth of crossing shapes (its largest term inside the range, not at an end).
  expr body = p + ceil((n - p * t) / expr(3)) * min(p + expr(1), expr(5)) - expr(4);
  expr latest = maximum(p, expr(0), t - expr(1), body);
  CHECK(to_string(latest) == "maximum(p = 0..T - 1, p + ceil((N - p * T) / 3) * min(p + 1, 5) - 4)");
  for (int N = 0; N <= 40; ++N)
    for (int T = 0; T <= 9; ++T) {
      double want = brute_maximum(0, T - 1, [&](double v) { return v + std::ceil((N - v * T) / 3.0) * std::min(v + 1, 5.0) - 4; });
      INFO("N " << N << " T " << T);
      CHECK(evaluate(latest, std::vector<double>{double(N), double(T)}) == want);
    }
  // Every term negative: 0. A bound that is not finite: NaN. A NaN term: NaN.
  CHECK(evaluate(maximum(p, expr(0), n, expr(0) - p - expr(1)), std::vector<double>{5, 0}) == 0);
  CHECK(std::isnan(evaluate(maximum(p, expr(0), n, p), std::vector<double>{1e308 * 10, 0})));
  CHECK(std::isnan(evaluate(maximum(p, expr(0), n, p / (p - expr(2)) * expr(0)), std::vector<double>{4, 0})));
}

TEST_CASE("a maximum over something that is not an index, or with bounds that use its index, is refused",
          "[expr][maximum][errors]") {
  expr n = expr::parameter(0, "N");
  expr v = expr::index(3, "v");
  CHECK_THROWS_WITH(maximum(n, expr(0), n, n), "maximum() over \"N\", which is not an index (expr::index)");
  CHECK_THROWS_WITH(maximum(v, v - expr(1), n, v * v), "maximum() over index v: its bounds (v - 1..N) use the index itself");
  expr inner = sum(v, expr(0), n, min(v, n / expr(2)));
  CHECK_THROWS_WITH(maximum(v, expr(0), n, inner),
                    "maximum() over index v: its body has a sum or maximum over the same index (id 3); nested sums and "
                    "maxima need indices of their own");
}

TEST_CASE("a model with maxima: interpreter and compiled code (each path this machine runs) agree bit for bit",
          "[expr][maximum][jit]") {
  design_model m = testing::sized_model("maximum_test", {"N", "T", "S"});
  expr n = m.param("N"), t = m.param("T"), s = m.param("S");
  expr tile = expr::index(0, "tile"), p = expr::index(1, "p"), q = expr::index(2, "q");
  expr tiles = ceil_div(n, t);
  // Per tile of a triangular space: the latest over the chain's PEs p of p plus the most any PE
  // q <= p works (a prefix maximum, nested), the work shrinking along the diagonal.
  expr work = ceil(min(t, n - tile * t - q) / s);
  expr chain = maximum(p, expr(0), t - expr(1), p + maximum(q, expr(0), p, work));
  module_latency pe;
  pe.name = "PE";
  pe.main = make_summation(tile, expr(0), tiles - expr(1), make_leaf(chain + expr(2)));
  module_latency in;
  in.name = "in";
  in.role = module_role::input;
  in.main = make_leaf(ceil_div(n, s) * tiles);
  m.modules = {pe, in};
  m.dsp = maximum(p, n - t, n + t, min(p, s * expr(7)) - expr(20));  // a range that can be negative
  m.bram18k = ceil_div(n, s);
  m.uram = 0;
  m.lut = n;
  m.offchip_bytes = ceil_div(n, s) * expr(4);
  CHECK(testing::sized_rows_differing(m, "maximum").empty());
}
