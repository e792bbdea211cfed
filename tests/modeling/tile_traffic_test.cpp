// tile_traffic: the values a tile moves to and from DRAM, counted from the band's dependences,
// against the traced timed simulation of the architecture, tile by tile, on all of LU's designs
// (triangular: the diagonal tiles move fewer values; guarded partial tiles at a non-divisor).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <isl/set.h>

#include "../../src/modeling/tile_traffic.hpp"
#include "sadsl/catalog/kernels.hpp"
#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/timed_simulation.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/expr.hpp"
#include "../../src/modeling/point_count.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;

namespace tile_traffic_test {

using traffic_key = std::pair<std::string, bool>;  // tensor, into the tile

// Every first-level factor of d set to t1 of its loop.
design_point tiling(const design& d, const std::map<std::string, int64_t>& t1) {
  design_point p;
  for (const auto& f : d.factors) p[f.id] = t1.at(f.id.loop.name());
  return p;
}

// Per phase of a traced run: the elements each tensor's DRAM ports moved, in each direction (a
// packed network's words count their elements).
std::map<traffic_key, int64_t> simulated(const architecture& a, const phase_timing& ph) {
  std::map<traffic_key, int64_t> out;
  for (const auto& x : ph.instances) {
    const module_kind& k = a.modules.at(static_cast<size_t>(x.kind));
    if (!k.dram || x.dram_accesses == 0) continue;
    const io_network& net = a.networks.at(static_cast<size_t>(k.network));
    auto pack = net.packs.find(k.level);
    out[{net.tensor.name(), net.input}] += x.dram_accesses * (pack == net.packs.end() ? 1 : pack->second);
  }
  return out;
}

// The counts of `traffic` as expressions of the kernel's N and the tile's origins and extents
// (tile_param_names order, after N).
struct tile_counts {
  std::vector<std::pair<traffic_key, model::expr>> counts;

  tile_counts(const band& b, const std::vector<modeling::tile_traffic>& traffic) {
    std::vector<std::string> names = modeling::tile_param_names(b);
    names.insert(names.begin(), "N");
    size_t next = 0;
    for (const auto& t : traffic) {
      model::expr n = 0;
      t.values.foreach_set([&](isl::set s) {
        std::vector<model::expr> params;
        for (isl_size q = 0; q < isl_set_dim(s.get(), isl_dim_param); ++q) {
          isl_id* id = isl_set_get_dim_id(s.get(), isl_dim_param, static_cast<unsigned>(q));
          std::string name = isl_id_get_name(id);
          isl_id_free(id);
          size_t position = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
          params.push_back(model::expr::parameter(position, name));
        }
        n = n + modeling::point_count(s, params, next);
      });
      counts.emplace_back(traffic_key{t.tensor.name(), t.input}, n);
    }
  }

  // At N, tile origin `origin` and extents `extent`: the values moved per tensor and direction.
  std::map<traffic_key, int64_t> at(int64_t N, const std::vector<double>& origin, const std::vector<double>& extent) const {
    std::vector<double> values{double(N)};
    values.insert(values.end(), origin.begin(), origin.end());
    values.insert(values.end(), extent.begin(), extent.end());
    std::map<traffic_key, int64_t> out;
    for (const auto& [key, n] : counts)
      if (int64_t v = static_cast<int64_t>(model::evaluate(n, values)); v != 0) out[key] += v;
    return out;
  }
};

timed_result traced_run(const kernel& k, const architecture& a) {
  buffers data(k);
  data.randomize_inputs(3);
  timing_options o;
  o.trace = true;
  return simulate_timed(a, data, o);
}

}  // namespace tile_traffic_test

using namespace tile_traffic_test;

TEST_CASE("tile_traffic: every LU tile moves the values the band's dependences say, on every design") {
  // N = 12 with tiles of 8 (k, i) leaves partial tiles, run guarded; N = 16 whole ones, with
  // packed networks where a tile's box fits registers; k in one tile (not a phase loop then).
  for (auto [N, t1] : {std::pair<int64_t, std::map<std::string, int64_t>>{16, {{"k", 4}, {"j", 8}, {"i", 4}}},
                       {12, {{"k", 8}, {"j", 4}, {"i", 8}}},
                       {16, {{"k", 16}, {"j", 8}, {"i", 8}}}}) {
    kernel k = catalog::lu_uniform();
    k.get_param("N").set(N);
    std::vector<design> ds = designs(k);
    REQUIRE(ds.size() == 18);
    for (const design& d : ds) {
      architecture a = build_architecture(d, {tiling(d, t1), {}, false});
      const band& b = *d.band;
      tile_counts counts(b, modeling::tile_traffic_of(a));
      timed_result r = traced_run(k, a);
      REQUIRE(r.ok());
      for (const auto& ph : r.trace) {
        std::vector<double> origin(b.loops.size()), extent(b.loops.size());
        for (size_t x = 0; x < b.loops.size(); ++x) extent[x] = double(t1.at(b.loops[x]->name));
        for (size_t q = 0; q < a.phase_loops.size(); ++q) {
          const loop_id& l = d.tile_order.at(a.phase_loops[q]);
          origin[b.position(l)] = double(ph.phase[q] * t1.at(l.name()));
        }
        INFO(d.name() << " N " << N << ", tile at " << origin[0] << "," << origin[1] << "," << origin[2]);
        CHECK(counts.at(N, origin, extent) == simulated(a, ph));
      }
    }
  }
}

TEST_CASE("traffic_over_tiles: a whole LU run's DRAM traffic, summed over the tile space") {
  for (int64_t N : {12, 16}) {
    kernel k = catalog::lu_uniform();
    k.get_param("N").set(N);
    std::vector<design> ds = designs(k);
    for (size_t n : {0u, 7u, 12u, 15u}) {  // [k], [i], [k,i] and [j,i]
      const design& d = ds.at(n);
      const std::map<std::string, int64_t> t1{{"k", 8}, {"j", 4}, {"i", 8}};
      architecture a = build_architecture(d, {tiling(d, t1), {}, false});
      const band& b = *d.band;
      std::vector<model::expr> factor, tiles;
      for (const auto& l : b.loops) {
        factor.emplace_back(double(t1.at(l->name)));
        tiles.emplace_back(double((N + t1.at(l->name) - 1) / t1.at(l->name)));
      }
      std::map<traffic_key, int64_t> got, want;
      size_t next = 0;
      for (const auto& t : modeling::tile_traffic_of(a))
        got[{t.tensor.name(), t.input}] += static_cast<int64_t>(
            model::evaluate(modeling::traffic_over_tiles(b, t, {model::expr(double(N))}, factor, tiles, next), std::vector<double>{}));
      buffers data(k);
      data.randomize_inputs(3);
      timed_result r = simulate_timed(a, data);
      for (const auto& [tensor, bytes] : r.dram_bytes_read)
        if (bytes) want[{tensor, true}] = bytes / 4;
      for (const auto& [tensor, bytes] : r.dram_bytes_written)
        if (bytes) want[{tensor, false}] = bytes / 4;
      INFO(d.name() << " N " << N);
      CHECK(got == want);
      CHECK(got.at({"A", true}) == N * N);  // every element once
    }
  }
}

TEST_CASE("tile_traffic: a design whose tiles share a phase is refused") {
  kernel k = catalog::mm();
  for (const char* size : {"I", "J", "K"}) k.get_param(size).set(16);
  std::vector<design> ds = designs(k);
  const design& d = ds.front();
  design_point p;
  for (const auto& f : d.factors) p[f.id] = f.id.level == tile_level::array_partition ? 8 : f.id.level == tile_level::latency_hiding ? 4 : 2;
  architecture a = build_architecture(d, {p, {}, false});
  REQUIRE(d.tile_order.front().name() == "i");
  REQUIRE(a.phase_loops.empty());  // one phase: the tiles follow each other, C kept in the PEs along k
  CHECK(sadsl::testing::message_of([&] { modeling::tile_traffic_of(a); }) ==
        fmt::format("tile_traffic: design {} runs several tiles of loop i in one phase, where a PE may keep values from "
                    "one tile to the next; sadsl counts a tile's DRAM traffic only where every tile is a phase of its own",
                    d.name()));
}

TEST_CASE("traffic_over_tiles: a band loop that runs below 0 is refused") {
  kernel k("shift");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N});
  auto B = k.output<float>("B", {N});
  loop i("i", -2, N - 2);  // tiles are counted from 0, which this loop starts below
  B(i + 2) = A(i + 2) * 2.0f;
  std::vector<design> ds = designs(k);
  REQUIRE(!ds.empty());
  size_t next = 0;
  CHECK(sadsl::testing::message_of([&] {
          modeling::traffic_over_tiles(*ds.front().band, modeling::tile_traffic{}, {model::expr(8.0)}, {model::expr(4.0)},
                                       {model::expr(2.0)}, next);
        }) == "traffic_over_tiles: band loop i runs below 0, where tiles are not counted from");
}

TEST_CASE("first_tile: the tiles of j and i below k's first value are skipped, none that holds a point") {
  // LU's j and i start at k: at tiles of 8 along k and 4 along j, k's tile 3 starts at k = 24, so
  // j's tiles 0 to 5 (j < 24) are empty; k's own first tile has no bound (0).
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(48);
  std::vector<design> ds = designs(lu);
  const band& b = *ds.front().band;
  REQUIRE(b.loops[0]->name == "k");
  REQUIRE(b.loops[1]->name == "j");
  size_t next = 0;
  const std::vector<model::expr> t1{8.0, 4.0, 4.0};
  modeling::tile_binding bound = modeling::bind_tiles(b, {48.0}, t1, next);
  auto at = [&](size_t x, int64_t tile_k) {  // first_tile of loop x with T_k = tile_k
    model::expr value = model::sum(bound.index[0], double(tile_k), double(tile_k), modeling::first_tile(b, x, bound, t1));
    return model::evaluate(value, std::vector<double>{});
  };
  CHECK(at(0, 3) == 0);
  CHECK(at(1, 3) == 6);
  CHECK(at(2, 3) == 6);
  CHECK(at(1, 0) == 0);
  // Summed from there, the whole run's traffic is that of every tile of the bounding box.
  isl::set box = modeling::tile_box(b);
  for (int64_t tile_k = 0; tile_k < 6; ++tile_k)
    for (int64_t tile_j = 0; tile_j < 12; ++tile_j) {
      isl::set in_tile = isl::manage(isl_set_align_params(modeling::band_points(b).release(), isl_set_get_space(box.get())))
                             .intersect(box);
      std::map<std::string, model::expr> values = bound.values;
      values["o_k"] = double(8 * tile_k);
      values["o_j"] = double(4 * tile_j);
      values["o_i"] = double(4 * tile_j);  // a diagonal-aligned tile of i as well
      model::expr count = modeling::count_bound(in_tile, values, next);
      if (tile_j < 2 * tile_k) CHECK(model::evaluate(count, std::vector<double>{}) == 0);
    }
}
