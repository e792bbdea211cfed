// A model's tile counts, and its products ordered by them: designs that differ only in their tile
// order get the same core (one compiled copy), with the same values.
#include <catch2/catch.hpp>

#include <cstring>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/tile_counts.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace {

// A design's model whose phases multiply the tile counts of i and j in its tile order (as MM's
// builder multiplies a design's tile counts), after a term that meets j's count first in both.
design_model tile_order_model(const std::string& name, bool i_outer) {
  design_model m = testing::sized_model(name, {"I", "J", "K", "i_t1", "j_t1"});
  expr i_tiles = ceil(m.param("I") / m.param("i_t1")), j_tiles = ceil_div(m.param("J"), m.param("j_t1"));
  expr phases = i_outer ? i_tiles * j_tiles : j_tiles * i_tiles;
  m.modules.push_back({"PE", module_role::compute, make_leaf(max(j_tiles * 7, phases * m.param("K"))), {}, {}});
  m.offchip_bytes = phases * (i_tiles - 1) * 4;
  return m;
}

}  // namespace

TEST_CASE("tile counts: ceil(a / b) of two parameters neither inferred, each once, in walk order", "[model]") {
  design_model m = testing::sized_model("counts", {"I", "J", "i_t1", "j_t1", "p"});
  m.params[4].inferred = inference{expr(1), m.param("J")};
  expr i_tiles = ceil(m.param("I") / m.param("i_t1")), j_tiles = ceil_div(m.param("J"), m.param("j_t1"));
  expr by_inferred = ceil_div(m.param("J"), m.param("p")), by_constant = ceil_div(m.param("I"), expr(4));
  m.modules.push_back({"PE", module_role::compute, make_leaf(j_tiles * i_tiles + j_tiles + by_inferred + by_constant), {}, {}});
  m.dsp = ceil(m.param("I") / m.param("i_t1"));  // equal to i_tiles: the same count
  std::vector<expr> counts = tile_counts(m);
  REQUIRE(counts.size() == 2);
  CHECK(counts[0].same_as(j_tiles));
  CHECK(counts[1].same_as(i_tiles));
}

TEST_CASE("order_products: tile orders of one dataflow share a core, with the same values", "[model]") {
  design_model i_outer = tile_order_model("i outer", true), j_outer = tile_order_model("j outer", false);
  CHECK(emit_model(i_outer).core_hash != emit_model(j_outer).core_hash);  // (c1 * c0) * K against (c0 * c1) * K
  design_model i_ordered = i_outer, j_ordered = j_outer;
  order_products(i_ordered);
  order_products(j_ordered);
  CHECK(emit_model(i_ordered).core_hash == emit_model(j_ordered).core_hash);
  CHECK(emit_model(i_ordered).hash == emit_model(j_ordered).hash);  // the same counts as well: the same model
  device_limits limits{1e9, 1e9, 1e9};
  for (const auto& [before, after] : {std::pair{&i_outer, &i_ordered}, std::pair{&j_outer, &j_ordered}}) {
    std::vector<double> points = testing::random_points(*before, 200, 5);
    for (std::size_t p = 0; p < 200; ++p) {
      std::vector<double> x(points.begin() + 5 * p, points.begin() + 5 * p + 5), y = x;
      metrics a = interpreter(*before).evaluate(x, limits), b = interpreter(*after).evaluate(y, limits);
      CHECK(std::memcmp(&a, &b, sizeof a) == 0);
    }
  }
}

TEST_CASE("order_products leaves products with a factor that is not an integer as they are", "[model]") {
  design_model m = testing::sized_model("fraction", {"I", "J", "i_t1", "j_t1"});
  expr i_tiles = ceil(m.param("I") / m.param("i_t1")), j_tiles = ceil(m.param("J") / m.param("j_t1"));
  expr fractional = (j_tiles * (m.param("I") / 3)) * i_tiles;  // rounds differently in another order
  m.modules.push_back({"PE", module_role::compute, make_leaf(i_tiles + j_tiles + fractional), {}, {}});
  m.dsp = j_tiles * i_tiles;
  design_model ordered = m;
  order_products(ordered);
  CHECK(cost(ordered.modules[0].main).same_as(cost(m.modules[0].main)));
  CHECK(ordered.dsp.same_as(i_tiles * j_tiles));
}
