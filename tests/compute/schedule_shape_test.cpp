// What each pass does to the schedule, dimension by dimension. The semantics test cannot see this
// (an unchanged schedule is correct too); here every pass must produce its exact shape: space
// loops outermost after space-time; tile loops in the permutation's order, then the points;
// latency-hiding points sunk below the time loops; the SIMD point innermost.
#include <catch2/catch.hpp>

#include <isl/map.h>
#include <isl/set.h>
#include <isl/point.h>
#include <isl/val.h>

#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// The schedule vector of instance S[x] under `s`: the design's dimensions (the original
// schedule's dimensions, which follow, are cut off).
std::vector<int64_t> dims_of(const isl::schedule& s, const statement_info& st, const std::vector<int64_t>& x,
                             size_t design_dims) {
  isl::map m = isl::manage(isl_map_from_union_map(
      s.map().intersect_domain(isl::union_set(st.domain)).release()));
  isl::set point = isl::set::universe(st.domain.space());
  for (size_t d = 0; d < x.size(); ++d)
    point = isl::manage(isl_set_fix_si(point.release(), isl_dim_set, static_cast<unsigned>(d), x[d]));
  point = point.intersect_params(isl::set(st.domain.ctx(), "[I, J, K] -> { : I = 8 and J = 6 and K = 8 }"));
  isl::set image = m.intersect_domain(point).range();
  REQUIRE_FALSE(image.is_empty());
  REQUIRE(image.is_singleton());
  isl::point at = image.sample_point();
  std::vector<int64_t> out;
  for (size_t d = 0; d < design_dims; ++d)
    out.push_back(isl::manage(isl_point_get_coordinate_val(at.get(), isl_dim_set, static_cast<int>(d))).get_num_si());
  return out;
}

struct mm_fixture {
  kernel k = catalog::mm();
  std::shared_ptr<const band> b;
  loop_id i, j, kk;
  mm_fixture() {
    k.get_param("I").set(8), k.get_param("J").set(6), k.get_param("K").set(8);
    b = std::make_shared<const band>(outermost_band(build_program(k)));
    i = b->loop("i"), j = b->loop("j"), kk = b->loop("k");
  }
  const statement_info& update() const { return b->source->statement("S1"); }  // C(i,j) += A*B
};

// Every instance of the accumulation at a few points (i, j, k) of the 8 x 6 x 8 domain.
const std::vector<std::vector<int64_t>> instances = {{0, 0, 0}, {7, 5, 7}, {3, 4, 6}, {5, 1, 2}, {6, 3, 5}};

}  // namespace

TEST_CASE("space-time: the space loops outermost, then the others in band order") {
  mm_fixture f;
  design d = space_time(f.b, {"j", "k"}).value();
  for (const auto& x : instances) {
    INFO(x[0] << " " << x[1] << " " << x[2]);
    CHECK(dims_of(concrete_schedule(d, design_point{}), f.update(), x, 3) == std::vector<int64_t>{x[1], x[2], x[0]});
  }
}

TEST_CASE("array partitioning: tile loops in the permutation's order, then the points (space loops first)") {
  mm_fixture f;
  design st = space_time(f.b, {"i", "j"}).value();
  for (const auto& order : tile_orders(st)) {
    design d = array_partition(st, order).value();
    INFO(d.name());
    design_point p{{{f.i, tile_level::array_partition}, 3}, {{f.j, tile_level::array_partition}, 4},
                   {{f.kk, tile_level::array_partition}, 5}};
    std::map<loop_id, int64_t> t1{{f.i, 3}, {f.j, 4}, {f.kk, 5}};
    for (const auto& x : instances) {
      std::map<loop_id, int64_t> value{{f.i, x[0]}, {f.j, x[1]}, {f.kk, x[2]}};
      std::vector<int64_t> want;
      for (const auto& l : d.tile_order) want.push_back(floor_div(value[l], t1[l]));
      for (const auto& l : {f.i, f.j, f.kk}) want.push_back(value[l] % t1[l]);  // space i, j; then time k
      INFO(x[0] << " " << x[1] << " " << x[2]);
      CHECK(dims_of(concrete_schedule(d, p), f.update(), x, 6) == want);
    }
  }
  // The orders themselves: C's reuse (k) innermost, B's (i), A's (j).
  std::vector<std::vector<std::string>> orders;
  for (const auto& o : tile_orders(st)) orders.push_back(names_of(o.loops()));
  CHECK(orders == std::vector<std::vector<std::string>>{{"i", "j", "k"}, {"j", "k", "i"}, {"i", "k", "j"}});
}

TEST_CASE("latency hiding: the t2 points of the parallel loops sink below the time loops") {
  mm_fixture f;
  design st = space_time(f.b, {"i", "j"}).value();
  design d = latency_hiding(array_partition(st, tile_orders(st).front()).value()).value();
  CHECK(names_of(d.latency) == std::vector<std::string>{"i", "j"});
  design_point p{{{f.i, tile_level::array_partition}, 4}, {{f.j, tile_level::array_partition}, 6},
                 {{f.kk, tile_level::array_partition}, 8}, {{f.i, tile_level::latency_hiding}, 2},
                 {{f.j, tile_level::latency_hiding}, 3}};
  for (const auto& x : instances) {
    int64_t i = x[0], j = x[1], k = x[2];
    // tiles i, j, k | space i, j (outer points) | time k | latency i, j
    std::vector<int64_t> want{i / 4, j / 6, k / 8, (i % 4) / 2, (j % 6) / 3, k % 8, (i % 4) % 2, (j % 6) % 3};
    INFO(i << " " << j << " " << k);
    CHECK(dims_of(concrete_schedule(d, p), f.update(), x, 8) == want);
  }
}

TEST_CASE("SIMD: the vectorized loop's innermost point is the last dimension") {
  mm_fixture f;
  design st = space_time(f.b, {"i", "j"}).value();
  design lh = latency_hiding(array_partition(st, tile_orders(st).front()).value()).value();
  design d = simd(lh).value();
  REQUIRE(d.simd);
  CHECK(d.simd->name() == "k");
  design_point p{{{f.i, tile_level::array_partition}, 4}, {{f.j, tile_level::array_partition}, 6},
                 {{f.kk, tile_level::array_partition}, 8}, {{f.i, tile_level::latency_hiding}, 2},
                 {{f.j, tile_level::latency_hiding}, 3}, {{f.kk, tile_level::simd}, 4}};
  for (const auto& x : instances) {
    int64_t i = x[0], j = x[1], k = x[2];
    // ... | time k (outer part of its point) | latency i, j | SIMD k
    std::vector<int64_t> want{i / 4, j / 6, k / 8, (i % 4) / 2, (j % 6) / 3, (k % 8) / 4, (i % 4) % 2, (j % 6) % 3,
                              (k % 8) % 4};
    INFO(i << " " << j << " " << k);
    CHECK(dims_of(concrete_schedule(d, p), f.update(), x, 9) == want);
  }
}
