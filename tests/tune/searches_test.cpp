// Every search behind the one interface: feasible results, determinism for a seed, budgets, stop.
#include <catch2/catch.hpp>

#include <atomic>
#include <limits>

#include "sadsl/tune/tune.hpp"
#include "support.hpp"

namespace sadsl::tune::testing {

TEST_CASE("every heuristic search finds a feasible point within its evaluation budget", "[tune][search]") {
  design_space space = mm_space("kernel3_2");
  for (const std::string method : {"random", "annealing", "genetic", "mp", "genetic-mp", "padding"}) {
    DYNAMIC_SECTION(method) {
      search_result r = make_search(method)->run(space, evaluation_budget(3000, 7));
      REQUIRE(r.found);
      CHECK(r.method == method);
      CHECK(r.evaluations <= 3000);
      CHECK(r.metrics.feasible == 1);
      CHECK(r.cost == r.metrics.latency);
      CHECK(space.contains(r.best));
      CHECK(r.cost >= 637832.25);  // never better than the proven optimum
      REQUIRE_FALSE(r.trace.empty());
      CHECK(r.trace.back().best_cost == r.cost);
      for (std::size_t i = 1; i < r.trace.size(); ++i) CHECK(r.trace[i].best_cost < r.trace[i - 1].best_cost);
    }
  }
}

TEST_CASE("searches are deterministic for a seed", "[tune][search]") {
  design_space space = mm_space("kernel3_2");
  for (const std::string method : {"random", "annealing", "genetic", "genetic-mp"}) {
    DYNAMIC_SECTION(method) {
      search_result a = make_search(method)->run(space, evaluation_budget(2000, 11));
      search_result b = make_search(method)->run(space, evaluation_budget(2000, 11));
      search_result c = make_search(method)->run(space, evaluation_budget(2000, 12));
      CHECK(a.best == b.best);
      CHECK(a.evaluations == b.evaluations);
      CHECK(a.trace.size() == b.trace.size());
      CHECK((c.best != a.best || c.trace.size() != a.trace.size()));  // another seed, another walk
    }
  }
}

TEST_CASE("a set stop flag ends a search at once with its best so far", "[tune][search]") {
  design_space space = mm_space("kernel3_2");
  std::atomic<bool> stop{true};
  for (const std::string method : {"exact", "random", "genetic", "padding"}) {
    search_options o;
    o.seconds = 0;
    o.stop = &stop;
    search_result r = make_search(method)->run(space, o);
    CHECK_FALSE(r.complete);
    CHECK(r.evaluations <= 1024 * 2);
  }
}

TEST_CASE("a search stopped midway keeps the best point it had seen", "[tune][search]") {
  design_space space = mm_space("kernel3_2");
  for (const std::string method : {"random", "annealing", "genetic"}) {
    DYNAMIC_SECTION(method) {
      std::atomic<bool> stop{false};
      int calls = 0;
      double best_seen = std::numeric_limits<double>::infinity();
      search_options o;
      o.seconds = 0;
      o.stop = &stop;
      o.goal.kind = objective_kind::custom;  // latency, watching every point and stopping after 300
      o.goal.function = [&](const model::metrics& m, std::span<const double>) {
        if (m.feasible) best_seen = std::min(best_seen, m.latency);
        if (++calls == 300) stop = true;
        return m.latency;
      };
      search_result r = make_search(method)->run(space, o);
      REQUIRE(r.found);
      CHECK_FALSE(r.complete);
      CHECK(r.cost == best_seen);  // the best of every feasible point it saw
      CHECK(space.evaluate(r.best, o.goal).cost == r.cost);  // and the point it kept has that cost
    }
  }
}

TEST_CASE("the padding search finds the exact optimum of kernel3_2", "[tune][padding]") {
  search_options o;
  o.seconds = 0;
  search_result r = make_search("padding")->run(mm_space("kernel3_2"), o);
  CHECK(r.complete);
  CHECK(r.cost == 637832.25);
}

TEST_CASE("the divisor-only space has Odyssey's divisor-only optimum", "[tune][exact]") {
  space_options divisors_only;
  divisors_only.divisor_tiles_only = true;
  search_options o;
  o.seconds = 0;
  search_result r = make_search("exact")->run(mm_space("kernel3_2", 1024, divisors_only), o);
  CHECK(r.complete);
  CHECK(r.cost == 1052673.0);
}

TEST_CASE("an exact search with a cutoff proves its design cannot beat it", "[tune][exact]") {
  design_space space = mm_space("kernel3_2");  // optimum 637832.25, 1052673 over divisor tiles only
  search_options o;
  o.seconds = 0;
  o.cutoff = 637832.0;
  search_result cut = make_search("exact")->run(space, o);
  CHECK(cut.complete);
  CHECK(cut.cut_off);
  REQUIRE(cut.found);  // the best point met on the way: at worst the first incumbent (no padding)
  CHECK(cut.cost >= 637832.25);
  CHECK(cut.cost <= 1052673.0);
  o.cutoff = 700000.0;
  search_result proven = make_search("exact")->run(space, o);
  CHECK(proven.complete);
  CHECK_FALSE(proven.cut_off);
  CHECK(proven.cost == 637832.25);
  o.cutoff = std::numeric_limits<double>::infinity();
  CHECK_FALSE(make_search("exact")->run(space, o).cut_off);
}

TEST_CASE("exact tune_designs searches each design only for what beats the designs before it", "[tune][exact]") {
  std::vector<design_space> spaces = {mm_space("kernel0_2"), mm_space("kernel3_2"), mm_space("kernel1_0")};
  search_options o;
  o.seconds = 0;
  multi_result r = tune_designs(spaces, "exact", o);
  REQUIRE(r.found());
  REQUIRE(r.per_design.size() == 3);
  for (size_t d = 0; d < 3; ++d) CHECK(r.per_design[d].design == spaces[d].name());  // in the given order
  CHECK(r.best_index == 1);
  CHECK(r.best().cost == 637832.25);
  // Searched best first (a short random search ranks kernel3_2 first): no cutoff for it, its own
  // optimum; kernel0_2 (797115.25 at best) and kernel1_0 (2269248) cannot beat it.
  CHECK_FALSE(r.per_design[1].cut_off);
  CHECK(r.per_design[0].cut_off);
  CHECK(r.per_design[0].complete);
  CHECK(r.per_design[0].cost > 797115.25);  // not searched below the cutoff: the best met on the way
  CHECK(r.per_design[2].cut_off);
  CHECK(r.per_design[2].complete);
  o.settings.cutoff_across_designs = false;
  multi_result own = tune_designs(spaces, "exact", o);
  CHECK(own.best().cost == 637832.25);
  CHECK(own.per_design[0].cost == 797115.25);  // every design's own optimum
  CHECK(own.per_design[2].cost == 2269248.0);
  CHECK_FALSE(own.per_design[2].cut_off);
}

TEST_CASE("exact tune_designs: a design the exact search does not finish in its budget is searched by genetic-mp", "[tune][exact]") {
  std::vector<design_space> spaces = {mm_space("kernel0_2"), mm_space("kernel3_2")};
  // Of 6,000 evaluations, the first design's exact search may use half of its half (1,500) and
  // its genetic-mp half of an equal share of the rest (1,125); the last design's exact search half
  // of what is left (1,687). Exact proves kernel3_2's optimum in fewer, not kernel0_2's.
  search_options o = evaluation_budget(6000, 3);
  o.settings.cutoff_across_designs = false;
  multi_result r = tune_designs(spaces, "exact", o);
  REQUIRE(r.per_design.size() == 2);
  const search_result& proven = r.per_design[1];
  CHECK(proven.method == "exact");
  CHECK(proven.complete);
  CHECK(proven.cost == 637832.25);
  CHECK(proven.evaluations <= 1687);

  const search_result& got = r.per_design[0];
  REQUIRE(got.found);
  CHECK_FALSE(got.complete);
  CHECK(got.evaluations == 2625);
  search_options exact_only = o;
  exact_only.max_evaluations = 1500;
  search_result exact = make_search("exact")->run(spaces[0], exact_only);
  CHECK_FALSE(exact.complete);
  CHECK(exact.evaluations == 1500);  // the evaluation budget holds exactly
  // The better point of exact's 1,500 evaluations and genetic-mp's 1,125, its method saying whose.
  search_options rest = o;
  rest.max_evaluations = 1125;
  search_result genetic = make_search("genetic-mp")->run(spaces[0], rest);
  CHECK(got.cost == std::min(exact.cost, genetic.cost));
  CHECK(got.method == (genetic.cost < exact.cost ? "genetic-mp" : "exact"));
  CHECK(got.evaluations == exact.evaluations + genetic.evaluations);
  CHECK(got.cost >= 797115.25);  // never below the design's proven optimum

  // Exact only: half the budget, 3,000 evaluations, does not finish kernel0_2 either.
  o.settings.exact_budget_share = 1;
  search_result alone = tune_designs(spaces, "exact", o).per_design[0];
  CHECK(alone.method == "exact");
  CHECK_FALSE(alone.complete);
  CHECK(alone.evaluations == 3000);
  // No budget: exact proves both optima whatever the share.
  o.settings.exact_budget_share = 0.5;
  o.max_evaluations = 0;
  for (const auto& each : tune_designs(spaces, "exact", o).per_design) {
    CHECK(each.method == "exact");
    CHECK(each.complete);
  }
  o.settings.exact_budget_share = 0;
  CHECK_THROWS_WITH(tune_designs(spaces, "exact", o), "search_settings::exact_budget_share must be in (0, 1] (is 0)");
}

TEST_CASE("exact tune_designs: the best-ranked design's exact search may take more than an equal share", "[tune][exact]") {
  // Six designs, 2,000 evaluations: an equal share's exact half would be 166, fewer than
  // kernel3_2's proof takes (331); ranked first, its exact search may use a quarter, 500.
  std::vector<design_space> spaces;
  for (const char* name : {"kernel0_2", "kernel1_0", "kernel2_1", "kernel3_2", "kernel4_0", "kernel5_1"})
    spaces.push_back(mm_space(name));
  search_options o = evaluation_budget(2000, 3);
  multi_result r = tune_designs(spaces, "exact", o);
  REQUIRE(r.best_index == 3);
  CHECK(r.best().method == "exact");
  CHECK(r.best().complete);
  CHECK_FALSE(r.best().cut_off);
  CHECK(r.best().cost == 637832.25);
  CHECK(r.best().evaluations > 166);
  CHECK(r.best().evaluations <= 500);
}

TEST_CASE("exact tune_designs: designs after a used-up budget are not searched and report their ranking", "[tune][exact]") {
  // Two evaluations: the first-ranked design's exact search takes one, its genetic-mp the other;
  // the other design keeps the point of its ranking (a random search), not complete.
  std::vector<design_space> spaces = {mm_space("kernel0_2"), mm_space("kernel3_2")};
  search_options o = evaluation_budget(2, 3);
  multi_result r = tune_designs(spaces, "exact", o);
  REQUIRE(r.per_design.size() == 2);
  const search_result& searched = r.per_design[1];  // kernel3_2 ranks first
  const search_result& skipped = r.per_design[0];
  CHECK(searched.evaluations == 2);
  CHECK(skipped.method == "random");
  CHECK(skipped.found);
  CHECK_FALSE(skipped.complete);
  CHECK_FALSE(proven_optimal(r));
}

TEST_CASE("the best point is proven optimal only when every design's search finished", "[tune][exact]") {
  std::vector<design_space> spaces = {mm_space("kernel0_2"), mm_space("kernel3_2")};
  // kernel3_2's own optimum is proven in its share, kernel0_2's is not: the best point is the true
  // optimum here, but nothing proves that kernel0_2 has none better.
  search_options o = evaluation_budget(6000, 3);
  o.settings.cutoff_across_designs = false;
  multi_result budgeted = tune_designs(spaces, "exact", o);
  REQUIRE(budgeted.best_index == 1);
  CHECK(tuned_configuration(spaces[1], budgeted.best(), o.goal)["proven_optimal"] == true);  // in its own space
  CHECK_FALSE(proven_optimal(budgeted));
  CHECK_FALSE(complete(budgeted));
  // Without a budget both finish (kernel0_2 cut off at the best's cost: it cannot beat it).
  search_options unbounded;
  unbounded.seconds = 0;
  multi_result all = tune_designs(spaces, "exact", unbounded);
  CHECK(all.per_design[0].cut_off);
  CHECK(proven_optimal(all));
  CHECK(complete(all));
  // A design that cannot fit the device is no obstacle to the proof; one a stop left unsearched is.
  device tiny;
  tiny.name = "tiny";
  tiny.dsp = 4;
  tiny.bram18k = 100;
  std::vector<design_space> with_unfit = spaces;
  with_unfit.emplace_back(gemm_evaluator("kernel3_2"), std::map<std::string, std::int64_t>{{"i", 1024}, {"j", 1024}, {"k", 1024}}, tiny);
  multi_result unfit = tune_designs(with_unfit, "exact", unbounded);
  CHECK_FALSE(unfit.per_design[2].found);
  CHECK(proven_optimal(unfit));
  std::atomic<bool> stop{true};
  unbounded.stop = &stop;
  CHECK_FALSE(proven_optimal(tune_designs(spaces, "exact", unbounded)));
  // A genetic search proves nothing.
  CHECK_FALSE(proven_optimal(tune_designs(spaces, "genetic-mp", evaluation_budget(2000))));
}

TEST_CASE("tune_designs stopped before it searched every design lists the others as not found", "[tune][exact]") {
  std::vector<design_space> spaces = {mm_space("kernel0_2"), mm_space("kernel3_2"), mm_space("kernel1_0")};
  std::atomic<bool> stop{true};
  search_options o;
  o.seconds = 0;
  o.stop = &stop;
  multi_result r = tune_designs(spaces, "exact", o);
  REQUIRE(r.per_design.size() == 3);
  size_t unsearched = 0;
  for (size_t d = 0; d < 3; ++d) {
    CHECK(r.per_design[d].design == spaces[d].name());
    unsearched += r.per_design[d].found || r.per_design[d].evaluations > 0 ? 0 : 1;
  }
  CHECK(unsearched >= 2);  // the stop ends the loop after the first design it searches
}

}  // namespace sadsl::tune::testing
