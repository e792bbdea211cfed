// The searches on a model whose latency is a triangular nest of tiles (summations over two
// loops' tiles, and one over a single loop's; maxima over a chain's PEs): the exact search proves
// the optimum that an enumeration of every point finds, and the genetic-mp search (Ipopt on the
// relaxation, whose sums add their terms and whose maxima take their largest) returns a feasible
// point.
#include <catch2/catch.hpp>

#include <functional>
#include <limits>
#include <vector>

#include "sadsl/model/evaluator.hpp"
#include "sadsl/tune/tune.hpp"

#include "support.hpp"

namespace sadsl::tune::testing {

namespace {

// A model over two tiled loops i and j (factors T and U, problem sizes N and M) whose modules
// `modules` makes from the four parameters, with T U x 5 DSPs; interpreted, not compiled.
std::shared_ptr<const model::evaluator> two_loop_model(
    const char* name, const std::function<std::vector<model::module_latency>(model::expr, model::expr, model::expr, model::expr)>& modules,
    bool t_divides_n = false) {
  model::design_model m;
  m.name = name;
  m.source = "test";
  loop_id i = loop_id::fresh("i"), j = loop_id::fresh("j");
  auto add = [&](const char* param, model::parameter_origin origin) {
    model::parameter p;
    p.name = param;
    p.origin = origin;
    m.params.push_back(p);
  };
  add("N", model::problem_size_origin{param_id::fresh("N")});
  m.params.back().split_by = 1;
  add("T", factor_id{i, tile_level::array_partition});
  if (t_divides_n) m.params.back().divides.push_back(0);  // whole tiles only (a guarded design's model)
  add("M", model::problem_size_origin{param_id::fresh("M")});
  m.params.back().split_by = 3;
  add("U", factor_id{j, tile_level::array_partition});
  model::expr n = m.param("N"), t = m.param("T"), mm = m.param("M"), u = m.param("U");
  if (t_divides_n) m.constraints.push_back({model::constraint::kind::divides, t, n, "T divides N"});
  m.modules = modules(n, t, mm, u);
  m.dsp = t * u * 5;
  m.bram18k = ceil_div(t * u, 512);
  m.uram = 0;
  m.lut = t * u;
  m.offchip_bytes = (n * mm) * 4;
  model::evaluator_options interpret;
  interpret.use_ahead_of_time = interpret.use_just_in_time = false;
  return std::make_shared<const model::evaluator>(m, interpret);
}

std::shared_ptr<const model::evaluator> triangular_model() {
  return two_loop_model("triangular", [](model::expr n, model::expr t, model::expr mm, model::expr u) {
    model::expr a = model::expr::index(0, "a"), b = model::expr::index(1, "b");
    model::expr rows = ceil_div(n, t), columns = ceil_div(mm, u);
    // Tile (a, b) of the upper triangle of tiles runs its partial rows, pipelined, plus a fill.
    model::module_latency pe;
    pe.name = "PE";
    pe.main = model::make_summation(a, 0, rows - 1,
                                    model::make_summation(b, a, columns - 1, model::make_leaf(min(t, n - a * t) * u + 20)));
    model::module_latency in;
    in.name = "in";
    in.role = model::module_role::input;
    in.main = model::make_summation(a, 0, rows - 1, model::make_leaf(min(t, n - a * t) * 3));  // one loop: tabulated
    return std::vector<model::module_latency>{pe, in};
  });
}

// The same tiles, each ending at the latest of a chain of U PEs (model::maximum): PE p starts p
// cycles late and runs its share of the partial rows, the chain's last ones idle on the diagonal.
std::shared_ptr<const model::evaluator> chain_model() {
  return two_loop_model("chain", [](model::expr n, model::expr t, model::expr mm, model::expr u) {
    model::expr a = model::expr::index(0, "a"), p = model::expr::index(1, "p");
    model::expr rows = ceil_div(n, t), columns = ceil_div(mm, u);
    model::expr share = max(model::expr(0), min(t, n - a * t - p)) * columns;
    model::module_latency pe;
    pe.name = "PE";
    pe.main = model::make_summation(a, 0, rows - 1, model::make_leaf(maximum(p, 0, u - 1, p + share) + 20));
    return std::vector<model::module_latency>{pe};
  });
}

// Latency max(tiles x 30, T U - (T + U)): the second side, a difference of terms over both loops
// that no tabulated bound covers, cannot be bounded; max(a, b) >= a still bounds the whole.
std::shared_ptr<const model::evaluator> unbounded_side_model() {
  return two_loop_model("unbounded side", [](model::expr n, model::expr t, model::expr mm, model::expr u) {
    model::module_latency pe;
    pe.name = "PE";
    pe.main = model::make_leaf(max(ceil_div(n, t) * ceil_div(mm, u) * 30, t * u - (t + u)));
    return std::vector<model::module_latency>{pe};
  });
}

// The least cost of a feasible point of a space over t = 1..60, u = 1..45 (N = 60, M = 45), by
// evaluating every one: what the exact search must prove.
double best_by_enumeration(const design_space& space) {
  double best = std::numeric_limits<double>::infinity();
  for (std::int64_t t = 1; t <= 60; ++t)
    for (std::int64_t u = 1; u <= 45; ++u) {
      evaluation e = space.evaluate({t, u}, objective{});
      if (e.feasible()) best = std::min(best, e.cost);
    }
  return best;
}

// The exact search proves the optimum of `model` (N = 60, M = 45) that the enumeration finds; with
// `genetic_mp`, that search (Ipopt on the relaxation) returns a feasible point no better.
void check_searches(std::shared_ptr<const model::evaluator> model, bool genetic_mp = true) {
  design_space space(std::move(model), {{"N", 60}, {"M", 45}}, builtin_device("u250"));
  double best = best_by_enumeration(space);
  REQUIRE(std::isfinite(best));
  search_options options;
  options.seconds = 0;
  search_result exact = make_search("exact")->run(space, options);
  CHECK(exact.complete);
  CHECK(exact.cost == best);
  if (!genetic_mp) return;
  options.max_evaluations = 3000;
  search_result mp = make_search("genetic-mp")->run(space, options);
  CHECK(mp.found);
  CHECK(mp.cost >= best);
}

}  // namespace

TEST_CASE("a first-level factor that divides its problem size: the space lists its divisors alone", "[tune][exact]") {
  auto pe_only = [](model::expr n, model::expr t, model::expr mm, model::expr u) {
    model::module_latency pe;
    pe.name = "PE";
    pe.main = model::make_leaf(ceil_div(n, t) * ceil_div(mm, u) * (t + u + 7));
    return std::vector<model::module_latency>{pe};
  };
  design_space space(two_loop_model("whole tiles", pe_only, true), {{"N", 60}, {"M", 45}}, builtin_device("u250"));
  std::vector<std::int64_t> ts(space.loop_chains(0).begin(), space.loop_chains(0).end());
  CHECK(ts == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60});
  CHECK(space.loop_chain_count(1) == 45);  // U has no such relation
  CHECK(space.contains({12, 7}));
  CHECK_FALSE(space.contains({7, 7}));
  CHECK(space.evaluate({7, 7}, objective{}).feasible() == false);  // and the model calls it illegal
  search_options options;
  options.seconds = 0;
  search_result exact = make_search("exact")->run(space, options);
  REQUIRE(exact.complete);
  double best = std::numeric_limits<double>::infinity();
  for (std::int64_t t : ts)
    for (std::int64_t u = 1; u <= 45; ++u) best = std::min(best, space.evaluate({t, u}, objective{}).cost);
  CHECK(exact.cost == best);
  CHECK(60 % exact.best.at(0) == 0);
}

TEST_CASE("exact search bounds a max by its other side where one side cannot be bounded", "[tune][bound]") {
  check_searches(unbounded_side_model(), /*genetic_mp=*/false);
}

TEST_CASE("exact search over a model with summations proves the optimum of every point", "[tune][sum]") {
  check_searches(triangular_model());
}

TEST_CASE("exact search over a model with maxima over an index proves the optimum of every point", "[tune][maximum]") {
  check_searches(chain_model());  // Ipopt on the relaxation's maxima
}

}  // namespace sadsl::tune::testing
