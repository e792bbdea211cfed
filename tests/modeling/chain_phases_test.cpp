// chain_phases_latency: the latency of LU's one-dimensional designs (a chain of PEs, every tile a
// phase of its own) composed per tile from the tiles' counts, against the timed simulation.
#include <catch2/catch.hpp>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/set.h>

#include <cmath>
#include <map>
#include <string>

#include "../../src/modeling/chain_phases.hpp"
#include "../../src/modeling/tile_traffic.hpp"
#include "sadsl/catalog/kernels.hpp"
#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/timed_simulation.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/expr.hpp"
#include "../support/test_support.hpp"

namespace sadsl::chain_phases_test {

design_point tiled(const design& d, const std::map<std::string, int64_t>& t1) {
  design_point p;
  for (const auto& f : d.factors) p[f.id] = t1.at(f.id.loop.name());
  return p;
}

// The elements of a DRAM word of each network of a, as its architecture packs them.
std::function<model::expr(const tensor_id&, bool)> packing_of(const architecture& a) {
  return [&a](const tensor_id& tensor, bool input) {
    for (const auto& k : a.modules) {
      if (!k.dram) continue;
      const io_network& net = a.networks.at(static_cast<size_t>(k.network));
      auto pack = net.packs.find(k.level);
      if (net.tensor == tensor && net.input == input) return model::expr(double(pack == net.packs.end() ? 1 : pack->second));
    }
    return model::expr(1.0);
  };
}

// The model's latency of a's design at sizes N and tiles t1 (the factors as constants).
double modeled(const architecture& a, int64_t N, const std::map<std::string, int64_t>& t1) {
  std::vector<model::expr> factor, tiles;
  for (const auto& l : a.design->band->loops) {
    factor.emplace_back(double(t1.at(l->name)));
    tiles.emplace_back(double((N + t1.at(l->name) - 1) / t1.at(l->name)));
  }
  size_t next = 0;
  model::expr latency = modeling::chain_phases_latency(a, {model::expr(double(N))}, factor, tiles, packing_of(a), next);
  return model::evaluate(latency, std::vector<double>{});
}

int64_t simulated(const kernel& k, const architecture& a) {
  buffers data(k);
  data.randomize_inputs(5);
  timing_options o;
  o.dram_bytes_per_cycle = 256;  // the U250's 77 GB/s at 300 MHz: a port moves a word a cycle
  return simulate_timed(a, data, o).cycles;
}


TEST_CASE("chain_phases: LU's one-dimensional designs within 2% of the timed simulation", "[modeling][chain]") {
  // Whole tiles (N = 48: divisors, packed networks where a box fits registers at 8) and partial
  // ones (N = 40, tiles of 16 along k), in the three dataflows and two of their tile orders.
  for (auto [N, t1] : {std::pair<int64_t, std::map<std::string, int64_t>>{48, {{"k", 16}, {"j", 16}, {"i", 16}}},
                       {48, {{"k", 8}, {"j", 8}, {"i", 8}}},
                       {48, {{"k", 8}, {"j", 16}, {"i", 24}}},
                       {40, {{"k", 16}, {"j", 8}, {"i", 8}}}}) {
    kernel k = catalog::lu_uniform();
    k.get_param("N").set(N);
    std::vector<design> ds = designs(k);
    for (size_t n : {0u, 1u, 3u, 5u, 6u}) {  // [k] <[j,i],k>, [k] <[k,i],j>, [j] x 2, [i] <[j,i],k>
      const design& d = ds.at(n);
      REQUIRE(d.space.size() == 1);
      architecture a = build_architecture(d, {tiled(d, t1), {}, false});
      double model = modeled(a, N, t1);
      int64_t timed = simulated(k, a);
      INFO(d.name() << " N " << N << " tiles " << t1.at("k") << ", " << t1.at("j") << ", " << t1.at("i") << ": model "
                    << model << ", timed " << timed);
      CHECK(std::abs(model / double(timed) - 1) <= 0.02);
    }
  }
}

TEST_CASE("chain_phases: one expression of the factors, evaluated at each tiling", "[modeling][chain]") {
  kernel k = catalog::lu_uniform();
  k.get_param("N").set(64);
  std::vector<design> ds = designs(k);
  const design& d = ds.at(3);  // [j] <[j,i],k>
  // The expression is built once from an architecture of the design; at tiles of 16 and 32 no
  // network packs (every box is over 64 elements), so packing 1 holds at both.
  architecture at16 = build_architecture(d, {tiled(d, {{"k", 16}, {"j", 16}, {"i", 16}}), {}, false});
  model::expr n = model::expr::parameter(0, "N");
  std::vector<model::expr> factor, tiles;
  for (size_t x = 0; x < 3; ++x) {
    factor.push_back(model::expr::parameter(1 + x, "t_" + d.band->loops[x]->name));
    tiles.push_back(model::ceil_div(n, factor.back()));
  }
  size_t next = 0;
  model::expr latency = modeling::chain_phases_latency(
      at16, {n}, factor, tiles, [](const tensor_id&, bool) { return model::expr(1.0); }, next);
  for (int64_t t : {16, 32}) {
    architecture a = build_architecture(d, {tiled(d, {{"k", t}, {"j", t}, {"i", t}}), {}, false});
    double model = model::evaluate(latency, std::vector<double>{64, double(t), double(t), double(t)});
    CHECK(model == modeled(a, 64, {{"k", t}, {"j", t}, {"i", t}}));
    CHECK(std::abs(model / double(simulated(k, a)) - 1) <= 0.02);
  }
}

TEST_CASE("chain_phases: the PEs' units fall along k and rise along j and i in LU's tiles", "[modeling][chain]") {
  // Along k a point (k, j, i) has one at every lower k of its tile (j, i >= k still), so PE 0 works
  // the longest of the PEs up to any p; along j a point has one at every higher j up to the
  // tile's last PE with a point (j >= k still), so PE p does. isl decides both for every tile
  // and N; the model then takes the prefix maximum of the units as one term.
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(16);
  std::vector<design> ds = designs(lu);
  const band& b = *ds.front().band;
  isl::set box = modeling::tile_box(b);
  isl::set points = isl::manage(isl_set_align_params(modeling::band_points(b).release(), isl_set_get_space(box.get())))
                        .intersect(box);
  REQUIRE(b.loops[0]->name == "k");
  CHECK(modeling::trend_along_chain(points, 0, "o_k") == modeling::units_trend::falling);
  for (size_t x = 1; x < 3; ++x)
    CHECK(modeling::trend_along_chain(points, x, "o_" + b.loops[x]->name) == modeling::units_trend::rising);
  // The tile box alone: every PE works alike, which both describe (falling is taken first).
  CHECK(modeling::trend_along_chain(box, 1, "o_j") == modeling::units_trend::falling);
  // A band j <= k + 1 as well: a PE along j works on k = j - 1 and j only, neither rule holds.
  isl_constraint* near = isl_constraint_alloc_inequality(isl_local_space_from_space(isl_set_get_space(points.get())));
  near = isl_constraint_set_coefficient_si(near, isl_dim_set, 0, 1);   // k - j + 1 >= 0
  near = isl_constraint_set_coefficient_si(near, isl_dim_set, 1, -1);
  near = isl_constraint_set_constant_si(near, 1);
  isl::set banded = isl::manage(isl_set_add_constraint(points.copy(), near));
  CHECK(modeling::trend_along_chain(banded, 1, "o_j") == modeling::units_trend::unknown);
}

TEST_CASE("chain_phases: a two-dimensional array, or a PE that runs several values of its space loop, is refused",
          "[modeling][chain][errors]") {
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(16);
  std::vector<design> ds = designs(lu);
  const design& two = ds.at(9);  // [k,j] <[j,i],k>
  architecture a = build_architecture(two, {tiled(two, {{"k", 8}, {"j", 8}, {"i", 8}}), {}, false});
  size_t next = 0;
  auto one = [](const tensor_id&, bool) { return model::expr(1.0); };
  CHECK(sadsl::testing::message_of([&] { modeling::chain_phases_latency(a, {16.0}, {8.0, 8.0, 8.0}, {2.0, 2.0, 2.0}, one, next); }) ==
        "chain_phases: design [k,j] <[j,i],k> has a 2-dimensional PE array; this composition describes a chain of PEs "
        "along one space loop");
  kernel mm = catalog::mm();
  for (const char* size : {"I", "J", "K"}) mm.get_param(size).set(16);
  std::vector<design> mms = designs(mm);
  const design& d = mms.front();  // [i] <[i,j],k>: i_t2 latency-hiding factor
  design_point p;
  for (const auto& f : d.factors) p[f.id] = f.id.level == tile_level::array_partition ? 8 : f.id.level == tile_level::latency_hiding ? 4 : 2;
  architecture b = build_architecture(d, {p, {}, false});
  CHECK(sadsl::testing::message_of([&] { modeling::chain_phases_latency(b, {16.0, 16.0, 16.0}, {8.0, 8.0, 8.0}, {2.0, 2.0, 2.0}, one, next); }) ==
        "chain_phases: design [i] <[i,j],k> runs several values of its space loop i in a PE (i_t2); this composition "
        "counts one a PE");
}

}  // namespace sadsl::chain_phases_test
