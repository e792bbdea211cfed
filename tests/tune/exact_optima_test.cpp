// The exact search against the ground truth: Odyssey's full space for 1024^3 MM on the U250 x 0.7.
#include <catch2/catch.hpp>

#include "support.hpp"

namespace sadsl::tune::testing {

TEST_CASE("exact search reproduces optima.csv", "[tune][exact]") {
  auto rows = read_csv(odyssey_dir() / "gemm_1024" / "optima.csv");
  REQUIRE(rows.size() == 18);
  for (const auto& row : rows) {
    std::string design = row.at("design");
    DYNAMIC_SECTION(design) {
      design_space space = mm_space(design);
      search_options options;
      options.seconds = 0;
      options.threads = 2;
      search_result r = make_search("exact")->run(space, options);
      REQUIRE(r.found);
      CHECK(r.complete);
      CHECK(r.cost == Approx(std::stod(row.at("opt_latency"))).epsilon(1e-12));
      // Ties: optima.csv lists the first argmin it met, so only the cost must agree.
      CHECK(r.metrics.feasible == 1);
      CHECK(r.metrics.latency == r.cost);
    }
  }
}

}  // namespace sadsl::tune::testing
