// The expression IR: simplification, evaluation, printing, parsing; loop-tree costs; a model
// written by hand in C++.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>
#include <map>

#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/interpreter.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

TEST_CASE("simplification is exact and only where IEEE results cannot change", "[expr]") {
  expr n = expr::parameter(0, "n");
  expr t = expr::parameter(1, "t");
  CHECK((n * 1).same_as(n));
  CHECK((1 * n).same_as(n));
  CHECK((n + 0).same_as(n));
  CHECK((n - 0).same_as(n));
  CHECK((n / 1).same_as(n));
  CHECK(ceil_div(n, 1).same_as(n));      // n is an integer
  CHECK(ceil(n).same_as(n));
  CHECK(ceil(n / t).kind() == op::ceil);  // a real quotient keeps its ceil
  CHECK(ceil(ceil(n / t)).kind() == op::ceil);
  CHECK(ceil(ceil(n / t)).lhs().kind() == op::div);
  CHECK(max(n, n).same_as(n));
  CHECK((expr(512) / 8 / 4).is_constant(16));
  CHECK(ceil(expr(2.5)).is_constant(3));
  CHECK((n * 0).kind() == op::mul);  // n * 0 is NaN for infinite n: kept
  CHECK((n / t).is_integral() == false);
  CHECK(floor_div(n, t).is_integral());
  CHECK((n / t - n / t).is_constant(0));  // 0 for every finite value (the standard above)
  CHECK((n - t).kind() == op::sub);
  // x / max(x, 1): x below 1, and x / x = 1 exactly from 1 on.
  CHECK((n / max(n, 1)).same_as(min(n, 1)));
  CHECK(((n - t) / max(1, n - t)).same_as(min(n - t, 1)));
  CHECK((n / max(t, 1)).kind() == op::div);
  for (double v : {-3.5, -1.0, 0.0, 0.25, 0.999, 1.0, 1.5, 7.0, 1e300}) {
    std::vector<double> at{v, 0};
    CHECK(evaluate(n / max(n, 1), at) == v / std::max(v, 1.0));
  }
}

TEST_CASE("a product divided by one of its factors is the other factor", "[expr]") {
  expr n = expr::parameter(0, "n"), t = expr::parameter(1, "t");
  expr share = (t - 1) * n;  // a total over n PEs, then per PE
  CHECK((share / n).same_as(t - 1));
  CHECK(((n * t) / n).same_as(t));
  CHECK((n * t / max(n, 1)).same_as(t * min(n, 1)));  // y x / max(x, 1): y from 1 on, x y below
  CHECK((n * t / max(1, t)).same_as(n * min(t, 1)));
  CHECK(ceil_div(n * t, n).same_as(t));  // t is an integer
  CHECK(floor_div(t * n, n).same_as(t));
  CHECK(ceil_div((t / 2) * n, n).kind() == op::ceil_div);  // t / 2 is not: its ceiling stays
  CHECK((n * t / (n + 1)).kind() == op::div);
  CHECK((n * t / max(n, 2)).kind() == op::div);
  // Exact where the product is (integers below 2^53, the models' values at legal points), and
  // for every x below 1 in the max's form.
  for (double x : {1.0, 2.0, 3.0, 7.0, 1024.0})
    for (double y : {0.0, 1.0, 5.0, 1e6}) {
      std::vector<double> at{x, y};
      CHECK(evaluate(n * t / max(n, 1), at) == x * y / std::max(x, 1.0));
      CHECK(evaluate(share / n, at) == (y - 1) * x / x);
      CHECK(evaluate(ceil_div(n * t, n), at) == std::ceil(x * y / x));
    }
  for (double x : {-2.0, 0.0, 0.5})
    for (double y : {-1.5, 0.0, 3.0}) {
      std::vector<double> at{x, y};
      CHECK(evaluate(n * t / max(n, 1), at) == x * y / std::max(x, 1.0));
    }
}

TEST_CASE("a max over a value that a nested max already takes is the nested max (min likewise)", "[expr]") {
  expr a = expr::parameter(0, "a"), b = expr::parameter(1, "b"), c = expr::parameter(2, "c");
  expr nested = max(max(a + 1, b), c);
  CHECK(max(b, nested).identity() == nested.identity());
  CHECK(max(nested, a + 1).identity() == nested.identity());  // equal by structure, not identity
  CHECK(max(nested, max(a + 1, b)).identity() == nested.identity());
  CHECK(max(a, nested).kind() == op::max);  // a itself is not among its operands
  CHECK(max(a, nested).identity() != nested.identity());
  CHECK(min(b, min(a, b)).same_as(min(a, b)));
  CHECK(min(b, max(a, b)).kind() == op::min);  // a max is no min: kept
  // Through min or max nodes only: b within a sum is not taken.
  CHECK(max(b, max(a + b, c)).kind() == op::max);
  CHECK(max(b, max(a + b, c)).rhs().same_as(max(a + b, c)));
  std::vector<double> point{3, -2, 5};
  CHECK(evaluate(max(b, nested), point) == 5);
  std::vector<double> other{7, 2, 3};
  CHECK(evaluate(max(a + 1, max(max(a + 1, b), c)), other) == 8);
  // A chain of 100 nested maxima is searched 64 deep at most: an operand below stays.
  expr chain = a;
  for (int k = 1; k <= 100; ++k) chain = max(chain, b + k);
  CHECK(max(b + 100, chain).identity() == chain.identity());
  CHECK(max(b + 1, chain).identity() != chain.identity());
  CHECK(evaluate(max(b + 1, chain), point) == 98);
}

TEST_CASE("evaluation follows Python's arithmetic", "[expr]") {
  expr i = expr::parameter(0, "i"), i_t1 = expr::parameter(1, "i_t1");
  std::vector<double> point{1024, 129};
  CHECK(evaluate(ceil(i / i_t1), point) == 8);
  CHECK(evaluate(floor_div(i, i_t1), point) == 7);
  CHECK(evaluate(ceil_div(i, i_t1), point) == 8);
  CHECK(evaluate(i / i_t1 * i_t1, point) == 1024.0 / 129 * 129);
  CHECK(evaluate(min(i, i_t1) + max(i, i_t1), point) == 1153);
  CHECK(evaluate(floor(i / 3), point) == 341);
}

TEST_CASE("printing and parsing round-trip with Python precedence", "[expr]") {
  std::map<std::string, expr, std::less<>> names{{"a", expr::parameter(0, "a")}, {"b", expr::parameter(1, "b")},
                                                 {"c", expr::parameter(2, "c")}};
  name_lookup lookup = [&](std::string_view name) -> const expr* {
    auto found = names.find(name);
    return found == names.end() ? nullptr : &found->second;
  };
  std::vector<double> point{7, 2, 3};
  CHECK(evaluate(parse_expression("a - b - c", lookup), point) == 2);
  CHECK(evaluate(parse_expression("a / b * c", lookup), point) == 10.5);
  CHECK(evaluate(parse_expression("a // b", lookup), point) == 3);
  CHECK(evaluate(parse_expression("-a + +b", lookup), point) == -5);
  CHECK(evaluate(parse_expression("max(min(a,16),b,c)", lookup), point) == 7);
  CHECK(to_string(parse_expression("a - (b - c)", lookup)) == "a - (b - c)");
  CHECK(to_string(parse_expression("(a + b) * c / 2", lookup)) == "(a + b) * c / 2");
  CHECK(to_string(parse_expression("ceil((a/b))", lookup)) == "ceil(a / b)");
  CHECK(to_string(parse_expression("a // b", lookup)) == "floor_div(a, b)");
  CHECK(to_string(expr(0.1)) == "0.10000000000000001");
  CHECK_THROWS_WITH(parse_expression("a + d", lookup), "bad expression \"a + d\": unknown name 'd' at column 5");
  CHECK_THROWS_WITH(parse_expression("a)", lookup), "bad expression \"a)\": unexpected ')' at column 2");
}

TEST_CASE("loop trees: loops multiply, blocks add, double buffering overlaps", "[expr]") {
  expr n = expr::parameter(0, "n"), m = expr::parameter(1, "m");
  std::vector<double> point{10, 4};
  loop_tree load = make_loop(m, make_leaf(2));
  loop_tree compute = make_loop(m, make_pipeline(make_leaf(1), 3, 5));
  CHECK(evaluate(cost(make_loop(n, make_transfer(load, compute, true))), point) == 10 * std::max(8.0, 4 * (3.0 + 5)));
  CHECK(evaluate(cost(make_loop(n, make_transfer(load, compute, false))), point) == 10 * (8 + 4 * 8.0));
  CHECK(evaluate(cost(make_block({load, compute, make_block({})})), point) == 8 + 32);
  CHECK(evaluate(cost(make_branch(load, compute)), point) == 8);
  CHECK(to_string(cost(make_loop(n, make_loop(m, make_leaf(m / 2))))) == "n * m * (m / 2)");
}

namespace {

parameter named(const std::string& name, parameter_origin origin) {
  parameter p;
  p.name = name;
  p.origin = std::move(origin);
  return p;
}

// A model written by hand: an n x n output-stationary array computing an N^3 product.
design_model handwritten_model() {
  design_model model;
  model.name = "handwritten";
  sadsl::loop_id n = sadsl::loop_id::fresh("n");
  model.params = {named("N", problem_size_origin{sadsl::param_id::fresh("N")}),
                  named("T", sadsl::factor_id{n, sadsl::tile_level::array_partition}),
                  named("P", sadsl::factor_id{n, sadsl::tile_level::latency_hiding})};
  model.params[0].split_by = 1;
  model.params[1].split_by = 2;
  model.params[2].divides = {1};
  expr N = model.param("N"), T = model.param("T"), P = model.param("P");
  model.params[1].lower_bound = 1;
  model.constraints.push_back({constraint::kind::at_least, T, 1, "T >= 1"});
  model.constraints.push_back({constraint::kind::divides, P, T, "P divides T"});
  expr tiles = ceil_div(N, T);
  model.modules.push_back({"load", module_role::input, make_loop(tiles * tiles * tiles, make_leaf(T * T / 16)),
                           make_leaf(T * T / 16), std::nullopt});
  model.modules.push_back({"PE", module_role::compute, make_loop(tiles * tiles * tiles, make_leaf(T * T * T / (P * P))),
                           std::nullopt, std::nullopt});
  model.modules.push_back({"store", module_role::output, make_loop(tiles * tiles, make_leaf(T * T / 16)), std::nullopt,
                           make_leaf(T * T / 16)});
  model.dsp = P * P * 5;
  model.bram18k = ceil_div(T * T, expr(512)) * 3;
  model.uram = 0;
  model.lut = P * P * 350;
  model.offchip_bytes = (tiles * tiles * tiles * T * T * 2 + tiles * tiles * T * T) * 4;
  return model;
}

}  // namespace

TEST_CASE("a model written by hand evaluates and compiles", "[expr]") {
  interpreter model(handwritten_model());
  std::vector<double> point{1000, 64, 16};
  metrics m = model.evaluate(point, {1000, 1000, 0});
  double tiles = 16;  // ceil(1000 / 64)
  CHECK(m.latency_prologue == 256);
  CHECK(m.latency_main == tiles * tiles * tiles * 64 * 64 * 64 / 256);
  CHECK(m.latency_epilogue == 256);
  CHECK(m.latency == 256 + m.latency_main + 256);
  CHECK(m.dsp == 1280);
  CHECK(m.bram18k == 24);
  CHECK(m.legal == 1);
  CHECK(m.feasible == 0);  // 1280 DSPs > 1000
  point = {1000, 64, 24};
  CHECK(model.evaluate(point, {1e9, 1e9, 1e9}).legal == 0);  // 24 does not divide 64
  CHECK_THROWS_WITH(handwritten_model().param("Q"), "model \"handwritten\" has no parameter \"Q\"");

  testing::temporary_cache cache("handwritten");
  evaluator_options options;
  options.jit.cache_dir = cache.dir;
  evaluator compiled(handwritten_model(), options);
  REQUIRE(compiled.active_backend() == backend::just_in_time);
  point = {1000, 64, 16};
  metrics c = compiled.evaluate(point, {1000, 1000, 0});
  CHECK(std::memcmp(&c, &m, sizeof m) == 0);
}

TEST_CASE("an inferred parameter may only depend on the parameters before it", "[expr]") {
  design_model model = handwritten_model();
  model.params[1].inferred = inference{1, model.param("P")};
  CHECK_THROWS_WITH(emit_cpp(model), "model \"handwritten\": inferred parameter \"T\" depends on itself or on a parameter after it");
}
