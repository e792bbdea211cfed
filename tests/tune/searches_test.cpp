// Every search behind the one interface: feasible results, determinism for a seed, budgets, stop.
#include <catch2/catch.hpp>

#include <atomic>
#include <limits>

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

}  // namespace sadsl::tune::testing
