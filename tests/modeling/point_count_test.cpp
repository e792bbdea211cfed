// point_count: the points of parametric sets (triangles, LU's tiles, strides, unions) counted
// by the expression it builds, against counting them one by one, at many parameter values.
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <vector>

#include <isl/ctx.h>

#include "../../src/modeling/point_count.hpp"
#include "../support/test_support.hpp"
#include "sadsl/model/expr.hpp"

using namespace sadsl;
using count_expr = sadsl::model::expr;
using sadsl::testing::message_of;

namespace {

struct isl_context {
  isl_ctx* ctx = isl_ctx_alloc();
  ~isl_context() { isl_ctx_free(ctx); }
};

// The set's count as an expression of its parameters, which are model parameters 0, 1, ...
count_expr count_of(isl_ctx* ctx, const char* text, std::size_t params) {
  std::vector<count_expr> p;
  for (std::size_t i = 0; i < params; ++i) p.push_back(count_expr::parameter(i, "p" + std::to_string(i)));
  std::size_t next = 0;
  return modeling::point_count(isl::set(ctx, text), p, next);
}

// Whether e holds a sum or a maximum (a loop the evaluation runs).
bool has_reduction(const count_expr& e) {
  if (model::is_reduction(e.kind())) return true;
  for (std::size_t i = 0; i < model::operand_count(e.kind()); ++i)
    if (has_reduction(e.operand(i))) return true;
  return false;
}

// The points of the box [lo, hi)^dims that `in` holds.
int64_t brute(int dims, int64_t lo, int64_t hi, const std::function<bool(const std::vector<int64_t>&)>& in) {
  std::vector<int64_t> x(static_cast<std::size_t>(dims), lo);
  int64_t n = 0;
  while (true) {
    n += in(x) ? 1 : 0;
    int d = dims - 1;
    while (d >= 0 && ++x[static_cast<std::size_t>(d)] == hi) x[static_cast<std::size_t>(d--)] = lo;
    if (d < 0) return n;
  }
}

}  // namespace

TEST_CASE("point_count: a triangle has N (N + 1) / 2 points, none for N <= 0") {
  isl_context c;
  count_expr n = count_of(c.ctx, "[N] -> { [i, j] : 0 <= i < N and i <= j < N }", 1);
  for (double N : {-3.0, 0.0, 1.0, 2.0, 7.0, 100.0}) {
    INFO("N = " << N);
    double want = N > 0 ? N * (N + 1) / 2 : 0;
    CHECK(model::evaluate(n, std::vector<double>{N}) == want);
  }
}

TEST_CASE("point_count: LU's instances in a tile, wherever the tile stands against the diagonal") {
  // LU's band: 0 <= k < N, k <= j < N, k <= i < N; a tile of extents (tk, tj, ti) at origin
  // (ok, oj, oi). Parameters: N, ok, oj, oi, tk, tj, ti.
  isl_context c;
  count_expr n = count_of(c.ctx,
                    "[N, ok, oj, oi, tk, tj, ti] -> { [k, j, i] : 0 <= k < N and k <= j < N and k <= i < N and "
                    "ok <= k < ok + tk and oj <= j < oj + tj and oi <= i < oi + ti }",
                    7);
  std::mt19937_64 rng(7);
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    int64_t N = pick(1, 20), tk = pick(1, 8), tj = pick(1, 8), ti = pick(1, 8);
    int64_t ok = tk * pick(0, 4), oj = tj * pick(0, 4), oi = ti * pick(0, 4);
    int64_t want = brute(3, 0, 24, [&](const std::vector<int64_t>& x) {
      int64_t k = x[0], j = x[1], i = x[2];
      return k < N && k <= j && j < N && k <= i && i < N && ok <= k && k < ok + tk && oj <= j && j < oj + tj && oi <= i &&
             i < oi + ti;
    });
    std::vector<double> at = {double(N), double(ok), double(oj), double(oi), double(tk), double(tj), double(ti)};
    INFO("N " << N << " origin " << ok << "," << oj << "," << oi << " extents " << tk << "," << tj << "," << ti);
    REQUIRE(model::evaluate(n, at) == static_cast<double>(want));
  }
  // Closed: the sum over k of i's and j's extents past max(o, k) splits where k passes the
  // tile's origins and ends, and each piece is a polynomial of k (no loop is left to evaluate).
  CHECK_FALSE(has_reduction(n));
}

TEST_CASE("point_count: strides, unions and guards on the parameters") {
  isl_context c;
  // Even points of [0, N): floor((N - 1) / 2) + 1 of them.
  count_expr even = count_of(c.ctx, "[N] -> { [i] : exists e : i = 2e and 0 <= i < N }", 1);
  // Two ranges that overlap for N > 10, each point once.
  count_expr both = count_of(c.ctx, "[N] -> { [i] : 0 <= i < N or 10 <= i < 20 }", 1);
  // A set that is empty unless M >= 3.
  count_expr guarded = count_of(c.ctx, "[N, M] -> { [i, j] : 0 <= i < N and 0 <= j < M and M >= 3 }", 2);
  for (int64_t N = -2; N <= 30; ++N) {
    INFO("N = " << N);
    std::vector<double> at = {double(N)};
    CHECK(model::evaluate(even, at) == double(brute(1, -5, 40, [&](const auto& x) { return x[0] % 2 == 0 && 0 <= x[0] && x[0] < N; })));
    CHECK(model::evaluate(both, at) ==
          double(brute(1, -5, 40, [&](const auto& x) { return (0 <= x[0] && x[0] < N) || (10 <= x[0] && x[0] < 20); })));
    for (int64_t M = 0; M <= 5; ++M)
      CHECK(model::evaluate(guarded, std::vector<double>{double(N), double(M)}) == double(M >= 3 && N > 0 ? N * M : 0));
  }
}

TEST_CASE("point_count: a set unbounded for some parameter values is refused") {
  isl_context c;
  CHECK(message_of([&] { count_of(c.ctx, "[N] -> { [i, j] : 0 <= i < N and j >= i }", 1); }) ==
        "point_count: dimension 1 of [N] -> { [i, j] : 0 <= i < N and j >= i } is unbounded: its points cannot be counted");
}
