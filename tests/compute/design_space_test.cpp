// The design space: dataflows, tile orders, printed designs (golden), and the errors of each pass.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

std::shared_ptr<const band> band_of(const kernel& k) {
  return std::make_shared<const band>(outermost_band(build_program(k)));
}

std::vector<std::string> dataflows(const kernel& k) {
  std::vector<std::string> out;
  for (const auto& d : space_time_candidates(band_of(k))) out.push_back(d.dataflow());
  return out;
}

std::vector<std::string> permutations(const kernel& k) {
  std::vector<std::string> out;
  auto d = space_time_candidates(band_of(k)).front();
  for (const auto& order : tile_orders(d)) out.push_back(array_partition(d, order).value().permutation());
  return out;
}



}  // namespace

TEST_CASE("MM: six dataflows and three tile orders") {
  CHECK(dataflows(catalog::mm()) == std::vector<std::string>{"[i]", "[j]", "[k]", "[i,j]", "[i,k]", "[j,k]"});
  CHECK(permutations(catalog::mm()) == std::vector<std::string>{"<[i,j],k>", "<[j,k],i>", "<[i,k],j>"});
  CHECK(designs(catalog::mm()).size() == 18);
}

TEST_CASE("CNN: ten dataflows (p and q excluded), three tile orders") {
  kernel k = catalog::cnn();
  CHECK(band_of(k)->loop_names() == std::vector<std::string>{"o", "r", "c", "i"});
  auto d = dataflows(k);
  CHECK(d.size() == 10);
  CHECK(d == std::vector<std::string>{"[o]", "[r]", "[c]", "[i]", "[o,r]", "[o,c]", "[o,i]", "[r,c]", "[r,i]", "[c,i]"});
  CHECK(permutations(k) == std::vector<std::string>{"<[o,r,c],i>", "<[r,c,i],o>", "<[o,i],r,c>"});
}

TEST_CASE("3-D arrays behind an option") {
  auto ds = space_time_candidates(band_of(catalog::mm()), 3);
  CHECK(ds.size() == 7);
  CHECK(ds.back().dataflow() == "[i,j,k]");
}

TEST_CASE("MM designs follow Odyssey: latency hiding on i and j, SIMD on k with B transposed") {
  for (const auto& d : designs(catalog::mm())) {
    INFO(d.name());
    CHECK(names_of(d.latency) == std::vector<std::string>{"i", "j"});
    REQUIRE(d.simd);
    CHECK(d.simd->name() == "k");
    REQUIRE(d.layouts.size() == 1);
    CHECK(d.layouts[0].tensor.name() == "B");
    CHECK(d.layouts[0].order == std::vector<int>{1, 0});
    loop_id k = d.band->loop("k"), i = d.band->loop("i");
    const tiling_factor* k_simd = d.factor(factor_id{k, tile_level::simd});
    REQUIRE(k_simd);
    CHECK(k_simd == d.factor("k_t2"));
    CHECK(k_simd->power_of_two);
    CHECK(k_simd->parent == factor_id{k, tile_level::array_partition});
    CHECK(d.factor("i_t2")->parent == factor_id{i, tile_level::array_partition});
    CHECK(d.factor("i_t2")->id == factor_id{i, tile_level::latency_hiding});
  }
  // Factor order as in Odyssey's descriptors: space loops first.
  auto ds = designs(catalog::mm());
  std::vector<std::string> names;
  for (const auto& f : ds[3].factors) names.push_back(ds[3].name_of(f.id));  // [j] <[i,j],k>
  CHECK(names == std::vector<std::string>{"j_t1", "i_t1", "k_t1", "j_t2", "i_t2", "k_t2"});
}

TEST_CASE("CNN SIMD on the input channels needs no layout change") {
  for (const auto& d : designs(catalog::cnn())) {
    REQUIRE(d.simd);
    CHECK(d.simd->name() == "i");
    CHECK(d.layouts.empty());
    CHECK(names_of(d.latency) == std::vector<std::string>{"o", "r", "c"});
  }
}

TEST_CASE("golden: printed design spaces") {
  for (const auto& k : {catalog::mm(), catalog::cnn(), catalog::mttkrp(), catalog::ttmc(), catalog::fir()}) {
    std::string text;
    for (const auto& d : designs(k)) text += d.str();
    INFO(k.name());
    check_golden("compute", k.name(), text);
  }
}

TEST_CASE("padded extents: non-divisor first-level factors pad to whole tiles") {
  kernel k = catalog::mm();
  auto d = designs(k)[9];  // [i,j] <[i,j],k>
  factor_values v{{"i_t1", 129}, {"j_t1", 205}, {"k_t1", 64}, {"i_t2", 3}, {"j_t2", 41}, {"k_t2", 8}};
  auto padded = padded_extents(d, point_by_name(d, v));
  CHECK(padded.at(d.band->loop("i")) == 1032);
  CHECK(padded.at(d.band->loop("j")) == 1025);
  CHECK(padded.at(d.band->loop("k")) == 1024);
}

TEST_CASE("legality errors name the statement and the dependence") {
  // Reported at the recording site of the catalogue's statement (exact texts: tests/dsl).
  std::string lu = message_of([] { designs(catalog::lu()); });
  CHECK_THAT(lu, Catch::StartsWith("kernels.cpp:"));
  CHECK_THAT(lu, Catch::Contains(": kernel \"lu\" cannot be mapped to a systolic array: the flow dependence of S0 "
                                 "(A(i, j) -= A(i, k) * A(k, j)) on A(k, j) from S2 (A(i, j2) -= A(i, k2) * A(k2, j2)) "
                                 "is not uniform over the loops [i]: distance [N] -> { band[i] : 2 <= i <= -2 + N } (S2 "
                                 "is recorded at kernels.cpp:"));
  kernel bad("bad");
  param N = bad.param("N", 8);
  auto A = bad.inout<float>("A", {2 * N});
  loop i("i", N);
  A(i) += A(2 * i); int line = __LINE__;
  CHECK(message_of([&] { designs(bad); }) ==
        "design_space_test.cpp:" + std::to_string(line) +
            ": kernel \"bad\" cannot be mapped to a systolic array: the anti dependence of S0 (A(i) += A(2*i)) on A(i) "
            "from S0 (A(i) += A(2*i)) is not uniform over the loops [i]: distance [N] -> { band[i] : 0 < i < N and 2i < "
            "N }");
}

TEST_CASE("several outermost nests") {
  kernel k("two");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N});
  auto B = k.output<float>("B", {N});
  loop i("i", N), j("j", N);
  A(i) = 1.0f;
  B(j) = A(j);
  CHECK(message_of([&] { designs(k); }) ==
        "kernel \"two\" has several outermost loop nests (statement S1 is not in the first); a systolic array maps one "
        "nest");
}

TEST_CASE("pass errors") {
  auto b = band_of(catalog::cnn());
  CHECK(space_time(b, {"p"}).why() == "\"p\" is not a loop of the band [o, r, c, i]");
  CHECK(space_time(b, {}).why() == "a systolic array needs at least one space loop");
  auto mm = band_of(catalog::mm());
  design d = space_time(mm, {"i", "j"}).value();
  CHECK(latency_hiding(d).why() == "latency hiding of design [i,j] <> needs array partitioning first");
  CHECK(simd(d).why() == "SIMD of design [i,j] <> needs array partitioning first");
  CHECK(array_partition(d, {{mm->loop("i")}, {mm->loop("k")}}).why() ==
        "tile order [i, k] is not a permutation of the band loops [i, j, k]");
  design p = array_partition(d, tile_orders(d).front()).value();
  CHECK(array_partition(p, tile_orders(d).front()).why() == "design [i,j] <[i,j],k> is already partitioned");
  CHECK(message_of([&] { space_time(mm, {"q"}).value(); }) == "\"q\" is not a loop of the band [i, j, k]");
}

TEST_CASE("a design whose partial tiles are guarded is not vectorized") {
  // i starts at 1: a partial tile cannot be padded with zeros, and SIMD lanes need whole vectors.
  kernel k = sadsl::testing::mm_from_one();
  std::vector<design> ds = designs(k);
  REQUIRE(ds.size() == 18);
  for (const auto& d : ds) {
    CHECK_FALSE(d.simd.has_value());
    for (const auto& f : d.factors) CHECK(f.id.level != tile_level::simd);
  }
  design d = ds.front();
  CHECK(check_zero_padding(d).why_not == "loop \"i\" does not run over [0, P) for a param P");
  CHECK(simd(d).why() == "design " + d.name() + ": its partial tiles are guarded (loop \"i\" does not run over [0, P) "
                         "for a param P), and SIMD lanes need whole vectors");
  CHECK(check_zero_padding(designs(catalog::mm()).front()).valid());  // MM's loops run over [0, N)
}

TEST_CASE("a loop whose dependence distance exceeds one cannot be a space loop") {
  kernel k("stride2");
  param N = k.param("N", 16);
  auto A = k.inout<float>("A", {N + 2});
  loop i("i", N);
  A(i + 2) = A(i) * 0.5f;
  auto b = band_of(k);
  CHECK(space_loop_candidates(*b).empty());
  CHECK(message_of([&] { designs(k); }) ==
        "kernel \"stride2\" has no legal space loop: loop \"i\" cannot be a space loop: the flow dependence S0 -> S0 "
        "on A(i) has distance (2) over [i] (space loops need 0 or 1: data moves between neighbouring PEs only)");
  CHECK(space_time(b, {"i"}).why() ==
        "loop \"i\" cannot be a space loop: the flow dependence S0 -> S0 on A(i) has distance (2) over [i] (space loops "
        "need 0 or 1: data moves between neighbouring PEs only)");
}

TEST_CASE("tiling factor errors") {
  auto d = designs(catalog::mm())[9];
  factor_values ok{{"i_t1", 8}, {"j_t1", 8}, {"k_t1", 8}, {"i_t2", 4}, {"j_t2", 2}, {"k_t2", 4}};
  auto check = [&](const factor_values& v) { check_factors(d, point_by_name(d, v)); };
  CHECK_NOTHROW(check(ok));
  auto with = [&](const std::string& name, int64_t v) {
    auto x = ok;
    x[name] = v;
    return x;
  };
  CHECK(message_of([&] { check(with("i_t2", 3)); }) == "tiling factor \"i_t2\" = 3 must divide i_t1 = 8");
  CHECK(message_of([&] { check(with("k_t1", 0)); }) == "tiling factor \"k_t1\" = 0 must be at least 1");
  auto k12 = with("k_t1", 12);
  k12["k_t2"] = 3;
  CHECK(message_of([&] { check(k12); }) == "tiling factor \"k_t2\" = 3 must be a power of two");
  auto k16 = with("k_t1", 16);
  k16["k_t2"] = 16;
  CHECK(message_of([&] { check(k16); }) == "tiling factor \"k_t2\" = 16 exceeds its limit 8");
  auto missing = ok;
  missing.erase("j_t2");
  CHECK(message_of([&] { check(missing); }) == "design [i,j] <[i,j],k> needs a value for tiling factor \"j_t2\"");
  CHECK(message_of([&] { check(with("x_t1", 2)); }) == "design [i,j] <[i,j],k> has no tiling factor \"x_t1\"");
}

TEST_CASE("uniformized LU: local tensors expanded, band [k, j, i], AutoSA's triangular [k,j] array") {
  kernel k = catalog::lu_uniform();
  program p = build_program(k);
  CHECK(outermost_band(p).loop_names() == std::vector<std::string>{"k"});  // 2-D locals block the band
  program e = expand_local_tensors(p);
  CHECK(e.statement("S4").record->str() == "U_tmp(k, i, j) = U_tmp(k, i, j - 1)");
  CHECK(e.statement("S1").record->str() == "prev_V(k, i, j) = V(k - 1, i, j)");
  CHECK(outermost_band(e).loop_names() == std::vector<std::string>{"k", "j", "i"});
  auto ds = designs(k);
  CHECK(ds.size() == 18);
  CHECK(std::any_of(ds.begin(), ds.end(), [](const design& d) { return d.dataflow() == "[k,j]"; }));
  // The expanded program computes what the original does.
  k.get_param("N").set(7);
  buffers a(k), b(k);
  a.randomize_inputs(5);
  b.randomize_inputs(5);
  run_checked(build_program(k), a);
  run_checked(expand_local_tensors(build_program(k)), b);
  CHECK(a == b);
}

TEST_CASE("accumulated local tensors are not expanded") {
  kernel k("acc");
  param N = k.param("N", 4);
  auto A = k.input<float>("A", {N, N});
  auto T = k.local<float>("T", {N});
  auto B = k.output<float>("B", {N});
  loop i("i", N), j("j", N);
  T(j) += A(i, j);
  loop j2("j2", N);
  B(j2) = T(j2);
  program p = build_program(k);
  program e = expand_local_tensors(p);
  CHECK(e.statement("S1").record->str() == "T(j) += A(i, j)");
}
