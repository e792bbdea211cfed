// Objectives other than latency, and a user function, through the same searches.
#include <catch2/catch.hpp>

#include "support.hpp"

namespace sadsl::tune::testing {

TEST_CASE("the exact search minimises off-chip traffic and DSP use", "[tune][objective]") {
  design_space space = mm_space("kernel3_2", 64);
  search_options o;
  o.seconds = 0;
  search_result fastest = make_search("exact")->run(space, o);
  o.goal = objective_named("offchip");
  search_result least_traffic = make_search("exact")->run(space, o);
  o.goal = objective_named("dsp");
  search_result smallest = make_search("exact")->run(space, o);
  REQUIRE((fastest.found && least_traffic.found && smallest.found));
  CHECK(least_traffic.complete);
  CHECK(least_traffic.cost == least_traffic.metrics.offchip_bytes);
  CHECK(least_traffic.metrics.offchip_bytes <= fastest.metrics.offchip_bytes);
  CHECK(smallest.cost == 5);  // one PE, one SIMD lane: 5 DSPs
  CHECK(fastest.metrics.latency <= least_traffic.metrics.latency);
  // The exact optimum is no worse than anything a random search meets.
  search_options sampled;
  sampled.seconds = 0;
  sampled.max_evaluations = 5000;
  sampled.goal = objective_named("offchip");
  CHECK(least_traffic.cost <= make_search("random")->run(space, sampled).cost);
}

TEST_CASE("a user objective drives the heuristic searches", "[tune][objective]") {
  design_space space = mm_space("kernel3_2", 64);
  search_options o;
  o.seconds = 0;
  o.max_evaluations = 4000;
  o.goal.kind = objective_kind::custom;
  // Latency, but designs above 1000 DSPs are not wanted.
  o.goal.function = [](const model::metrics& m, std::span<const double>) { return m.dsp > 1000 ? 1e30 : m.latency; };
  for (const std::string method : {"genetic", "genetic-mp"}) {
    DYNAMIC_SECTION(method) {
      search_result r = make_search(method)->run(space, o);
      REQUIRE(r.found);
      CHECK(r.metrics.dsp <= 1000);
      CHECK(r.cost == r.metrics.latency);
      CHECK(objective_named("throughput").cost(r.metrics, r.params) == r.metrics.latency);
    }
  }
}

}  // namespace sadsl::tune::testing
