// The symbolic architecture bound at a point against the concrete architecture built there.
#include <catch2/catch.hpp>

#include <random>

#include <fmt/format.h>

#include "sadsl/catalog/kernels.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/error.hpp"
#include "sadsl/modeling/symbolic_architecture.hpp"
#include "../support/test_support.hpp"
#include "../support/kernels.hpp"
#include "random_point.hpp"

using namespace sadsl;

namespace {

std::string point_text(const design& d, const design_point& p) {
  std::string text;
  for (const auto& [f, v] : p) text += fmt::format("{}{}={}", text.empty() ? "" : " ", d.name_of(f), v);
  return text;
}

// True where the symbolic architecture's constraints hold at p.
bool holds(const symbolic_architecture& sym, const design_point& p, const kernel& k) {
  try {
    counts_at(sym, p, k);
    return true;
  } catch (const error&) {
    return false;
  }
}

// Binds `sym` at `points` random points of d and compares with the concrete architectures.
int compare_at_random_points(const design& d, const kernel& k, std::mt19937_64& rng, int points) {
  symbolic_architecture sym = build_symbolic_architecture(d);
  int compared = 0;
  for (int n = 0; n < points; ++n) {
    design_point p;
    for (int tries = 0; tries < 1000; ++tries) {
      p = testing::random_point(d, rng);
      if (holds(sym, p, k)) break;
    }
    architecture_counts want = counts_of(build_architecture(d, {p, {}, false}));
    architecture_counts got = counts_at(sym, p, k);
    INFO(k.name() << " " << d.name() << " at " << point_text(d, p) << "\n" << counts_difference(want, got));
    CHECK(want == got);
    ++compared;
  }
  return compared;
}

}  // namespace

TEST_CASE("MM symbolic architectures bound at random points are the concrete ones", "[modeling]") {
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(20);
  std::mt19937_64 rng(11);
  int compared = 0;
  for (const auto& d : designs(k)) compared += compare_at_random_points(d, k, rng, 3);
  CHECK(compared == 54);
}

TEST_CASE("CNN, MTTKRP and TTMc symbolic architectures bound at random points are the concrete ones", "[modeling]") {
  struct case_ {
    kernel k;
    int64_t size;
  };
  std::vector<case_> kernels = {{catalog::cnn(), 6}, {catalog::mttkrp(), 8}, {catalog::ttmc(), 6}};
  std::mt19937_64 rng(13);
  int compared = 0;
  for (auto& [k, size] : kernels) {
    for (const auto& p : k.params())
      if (p.value() > size) p.set(size);
    std::vector<design> ds = designs(k);
    for (size_t i = 0; i < ds.size(); i += 6) compared += compare_at_random_points(ds[i], k, rng, 2);
  }
  CHECK(compared == 2 * (5 + 4 + 7));
}

TEST_CASE("MM [i,j] <[i,j],k>: the symbolic architecture's text and its counts at the tuned point", "[modeling]") {
  kernel k = catalog::mm();
  for (const auto& d : designs(k)) {
    if (d.name() != "[i,j] <[i,j],k>") continue;
    symbolic_architecture sym = build_symbolic_architecture(d);
    std::string text = to_string(sym);
    INFO(text);
    CHECK(text.find("PE grid: [i_t1 / i_t2, j_t1 / j_t2]\n") != std::string::npos);
    // SIMD on k (its factor is k_t2): the PEs move vectors of A and B, and C one by one.
    CHECK(text.find("  ports: A_in (in, k_t2 lanes), A_out (out, k_t2 lanes), B_in (in, k_t2 lanes), B_out (out, k_t2 lanes), "
                    "C_drain_IO_out (out, 1 lanes)\n") != std::string::npos);
    CHECK(text.find("module A_IO_L2_in (I/O in): i_t1 / i_t2 - 1 instances, reading i_t1 / i_t2 - 1 FIFOs\n"
                    "  ports: in (in, packing lanes), to_pe (out, k_t2 lanes), next (out, packing lanes)\n"
                    "  buffer local_A (float, double buffered): [i_t2, k_t1]\n") != std::string::npos);
    design_point p = point_by_name(d, {{"i_t1", 129}, {"j_t1", 205}, {"k_t1", 64}, {"i_t2", 3}, {"j_t2", 41}, {"k_t2", 8}});
    architecture_counts c = counts_at(sym, p, k);
    CHECK(c.pe_grid == std::vector<int64_t>{43, 5});
    architecture_counts::module_key pe{};
    REQUIRE(c.modules.count(pe) == 1);
    CHECK(c.modules.at(pe).instances == 43 * 5);
    // The PE accumulates C in a local buffer of one latency tile, i_t2 x j_t2.
    REQUIRE(c.modules.at(pe).buffers.size() == 1);
    CHECK(c.modules.at(pe).buffers[0].extents == std::vector<int64_t>{3, 41});
    // k_t2 = 8 lanes; C drained one float a token.
    CHECK(c.modules.at(pe).port_lanes == std::vector<int64_t>{8, 8, 8, 8, 1});
  }
}

TEST_CASE("FIR and GEMV symbolic architectures bound at random points are the concrete ones", "[modeling]") {
  std::mt19937_64 rng(17);
  int compared = 0;
  for (kernel k : {catalog::fir(), catalog::gemv()}) {
    for (const auto& p : k.params())
      if (p.value() > 16) p.set(16);
    for (const auto& d : designs(k)) compared += compare_at_random_points(d, k, rng, 3);
  }
  CHECK(compared == 36);  // 12 designs
}

TEST_CASE("max-plus MM (guarded) symbolic architectures bound at whole tiles are the concrete ones", "[modeling]") {
  kernel k = sadsl::testing::tropical_mm(24);
  std::mt19937_64 rng(7);
  int compared = 0;
  std::vector<design> ds = designs(k);
  for (size_t i = 0; i < ds.size(); i += 2) compared += compare_at_random_points(ds[i], k, rng, 2);
  CHECK(compared == 18);
  symbolic_architecture sym = build_symbolic_architecture(ds.front());
  // At whole tiles its chunks are whole boxes: it packs as a padded design does where its buffers
  // are registers (their banks cost no block RAM).
  CHECK_THAT(to_string(sym), Catch::Contains("network A_IO (A in): chunk [i_t2, k_t1], elements per DRAM word: the largest "
                                             "power of two <= 16 dividing [k_t1] where the chunk has 64 elements or fewer "
                                             "(registers), else 1"));
  design_point partial = point_by_name(ds.front(), {{"i_t1", 5}, {"j_t1", 6}, {"k_t1", 4}, {"i_t2", 1}, {"j_t2", 2}});
  CHECK_THROWS_WITH(counts_at(sym, partial, k),
                    "design " + ds.front().name() + " at i_t1=5 j_t1=6 k_t1=4 i_t2=1 j_t2=2: the symbolic architecture needs "
                    "i_t1 to divide N (24), where a guarded design's tiles are whole; the architecture there is another");
}

TEST_CASE("LU symbolic architectures bound with one tile along some loops are the concrete ones", "[modeling]") {
  // With one tile along a loop a triangle's chunks are narrower than the tile (L_tmp's j spans
  // 1 .. N - 1, V's past k's first tile N - k_t1), a network that crosses no tile of it is not
  // built and a dummy sink ends its PE chain (modeling/one_tile_extents.hpp).
  kernel k = catalog::lu_uniform();
  k.get_param("N").set(48);
  const std::vector<int64_t> divisors{4, 6, 8, 12, 16, 24, 48};
  std::mt19937_64 rng(3);
  std::vector<design> ds = designs(k);
  int compared = 0;
  for (size_t i = 0; i < ds.size(); i += 3) {
    const design& d = ds[i];
    symbolic_architecture sym = build_symbolic_architecture(d);
    for (int n = 0; n < 3; ++n) {
      design_point p;
      const size_t one = std::uniform_int_distribution<size_t>(0, d.factors.size() - 1)(rng);
      for (size_t f = 0; f < d.factors.size(); ++f)
        p[d.factors[f].id] = f == one ? 48 : divisors[std::uniform_int_distribution<size_t>(0, divisors.size() - 1)(rng)];
      architecture_counts want = counts_of(build_architecture(d, {p, {}, false}));
      architecture_counts got = counts_at(sym, p, k);
      INFO(d.name() << " at " << point_text(d, p) << "\n" << counts_difference(want, got));
      CHECK(want == got);
      ++compared;
    }
  }
  CHECK(compared == 18);
}

TEST_CASE("MM with an inout C: symbolic architectures bound at random points are the concrete ones", "[modeling]") {
  // Where a PE only passes C through (k_t1 = 1, or k's SIMD factor 1 with k in space) it has no C
  // buffer: the symbolic one is absent there too (symbolic_buffer::present).
  kernel k = sadsl::testing::mm_inout(24);
  std::mt19937_64 rng(8);
  int compared = 0;
  for (const auto& d : designs(k)) compared += compare_at_random_points(d, k, rng, 2);
  CHECK(compared == 36);
}

TEST_CASE("a symbolic architecture the builder cannot read says why", "[modeling]") {
  kernel k = catalog::trmm();
  k.get_param("M").set(32);
  k.get_param("N").set(32);
  std::vector<design> ds = designs(k);
  REQUIRE(ds.size() > 6);
  CHECK_THROWS_WITH(build_symbolic_architecture(ds.front()), Catch::Contains("runs several tiles of loop i in one phase"));
  CHECK(sadsl::testing::message_of([&] { build_symbolic_architecture(ds.at(6)); }) ==
        "design [k] <[i,j],k>: sadsl models a triangular design whose PEs pass no partial sums; this one deepens "
        "fifo_A_IO_L1_in_1_to_pe along a partial-sum chain");
}

TEST_CASE("a symbolic architecture bound where its partial sums would stay in one PE says so", "[modeling]") {
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(20);
  for (const auto& d : designs(k)) {
    if (d.name() != "[i,k] <[j,k],i>") continue;
    symbolic_architecture sym = build_symbolic_architecture(d);
    design_point p = point_by_name(d, {{"i_t1", 3}, {"j_t1", 6}, {"k_t1", 2}, {"i_t2", 3}, {"j_t2", 2}, {"k_t2", 2}});
    CHECK_THROWS_WITH(counts_at(sym, p, k),
                      "design [i,k] <[j,k],i> at i_t1=3 k_t1=2 j_t1=6 i_t2=3 j_t2=2 k_t2=2: the symbolic architecture needs two "
                      "or more PEs along k (partial sums flow between them); the architecture there is another");
  }
}

TEST_CASE("a PE buffer packed no wider than the SIMD factor has the SIMD factor's banks", "[modeling]") {
  // MM's [i,k] designs pack A and B at most by k_t2's power-of-two divisor: the banks of the
  // buffers that feed the PEs, max(pack, k_t2), are k_t2 at every legal point, and the quotients
  // by them go (a test above binds the buffers against the concrete architecture's).
  kernel k = catalog::mm();
  for (const design& d : designs(k)) {
    if (d.name() != "[i,k] <[i,j],k>") continue;
    symbolic_architecture sym = build_symbolic_architecture(d);
    int simd_banks = 0;
    for (const auto& m : sym.modules)
      for (const auto& b : m.buffers) {
        INFO(m.name << " " << b.name << " banks " << model::to_string(b.banks));
        CHECK(b.banks.kind() != model::op::max);
        if (b.banks.kind() == model::op::parameter && b.banks.parameter_name() == "k_t2") ++simd_banks;
      }
    CHECK(simd_banks == 4);  // of A_IO_L1_in and B_IO_L2_in, which feed the PEs, and their boundary copies
  }
}
