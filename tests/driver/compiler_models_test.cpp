// compiler_models(device): sadsl's own models with the device's DRAM bandwidth per port.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

std::string latency_of(const model::design_model& m) { return model::to_string(model::metrics_of(m).latency); }

design mm_design(const kernel& k, const std::string& name) {
  std::vector<design> ds = designs(k);
  auto found = std::find_if(ds.begin(), ds.end(), [&](const design& d) { return d.name() == name; });
  REQUIRE(found != ds.end());
  return *found;
}

}  // namespace

TEST_CASE("compiler_models(device) models transfers at the device's DRAM bandwidth") {
  kernel k = catalog::mm();
  for (auto p : k.params()) p.set(48);
  design d = mm_design(k, "[i,j] <[i,j],k>");
  // The U250's DDR4-2400 ports at 300 MHz move 64 bytes a cycle: the models of compiler_models().
  tune::device u250 = tune::builtin_device("u250");
  std::optional<model::design_model> at_u250 = compiler_models(u250)(d);
  REQUIRE(at_u250);
  CHECK(latency_of(*at_u250) == latency_of(performance_model(d)));
  // 0.6 GB/s at 300 MHz: 2 bytes a cycle, the model of modeling_options::dram_bytes_per_cycle = 2.
  tune::device slow = u250;
  slow.dram_gbytes_per_second = 0.6;
  modeling_options two;
  two.dram_bytes_per_cycle = 2;
  std::optional<model::design_model> at_slow = compiler_models(slow)(d);
  REQUIRE(at_slow);
  CHECK(latency_of(*at_slow) == latency_of(performance_model(d, two)));
  CHECK(latency_of(*at_slow) != latency_of(*at_u250));
  // An I/O-bound point (docs/modeling.md's latency table) takes longer behind the slow ports.
  design_point point = point_by_name(d, {{"i_t1", 24}, {"j_t1", 24}, {"k_t1", 16}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 8}});
  std::vector<double> x = model_point(*at_u250, point, k);
  model::device_limits roomy{1e9, 1e9, 1e9};
  CHECK(model::interpreter(*at_slow).evaluate(x, roomy).latency > model::interpreter(*at_u250).evaluate(x, roomy).latency);
}

TEST_CASE("compiler_models(device) needs a clock and a DRAM bandwidth") {
  tune::device d = tune::builtin_device("u250");
  d.name = "mine";
  d.clock_mhz = 0;
  CHECK(message_of([&] { compiler_models(d); }) ==
        "compiler_models: device \"mine\" needs a positive clock and DRAM bandwidth (has 0 MHz, 19.2 GB/s)");
}

TEST_CASE("the exact search bounds every MM design's own model (its terms as the bounds can take them)") {
  kernel k = catalog::mm();
  std::map<param_id, int64_t> sizes;
  for (const auto& p : k.params()) sizes[p.id()] = p.value();
  std::vector<design> ds = designs(k);
  std::vector<std::optional<model::design_model>> models = design_models(ds, compiler_models(), {}, 2);
  REQUIRE(models.size() == 18);
  // Bounds are built first (a budget that runs out while they are built ends the search without
  // them, hence a budget that leaves time for them on a slow machine); then each search stops.
  tune::search_options o;
  o.seconds = 0.2;
  for (size_t d = 0; d < ds.size(); ++d) {
    INFO(ds[d].name());
    REQUIRE(models[d]);
    tune::design_space space(std::make_shared<const model::evaluator>(std::move(*models[d])), sizes, tune::builtin_device("u250"));
    tune::search_result r;
    REQUIRE_NOTHROW(r = tune::make_search("exact")->run(space, o));
    CHECK(r.found);
  }
}
