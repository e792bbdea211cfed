// The compiler-built performance models, checked against the concrete architectures they describe.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include <fmt/format.h>

#include "sadsl/catalog/kernels.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/compute/zero_padding.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/modeling/performance_model.hpp"
#include "sadsl/poly/program.hpp"
#include "../support/kernels.hpp"
#include "../support/test_support.hpp"
#include "random_point.hpp"

using namespace sadsl;

TEST_CASE("MM models: resources equal the concrete architecture's at random points", "[modeling]") {
  // DSP, BRAM18K and URAM everywhere, FF (operators, FIFOs, register buffers) at legal points.
  // FF includes the FIFOs deepened along the partial sums of designs with k in space.
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(20);
  std::mt19937_64 rng(7);
  int checked = 0, legal = 0, deepened = 0;
  for (const auto& d : designs(k)) {
    model::design_model m = performance_model(d);
    CHECK(m.source == "sadsl");
    model::interpreter eval(m);
    for (int trial = 0; trial < 3; ++trial) {
      design_point point = testing::random_point(d, rng);
      architecture a = build_architecture(d, {point, {}, false});
      resource_counts want = count_resources(a);
      deepened += std::any_of(a.fifos.begin(), a.fifos.end(), [](const fifo& f) { return f.depth > 2; });
      std::vector<double> x = model_point(m, point, k);
      model::metrics got = eval.evaluate(x, {1e9, 1e9, 1e9});
      INFO(d.name() << " at " << fmt::format("{}", fmt::join(x, ", ")));
      CHECK(got.dsp == static_cast<double>(want.dsp));
      CHECK(got.bram18k == static_cast<double>(want.bram18k));
      CHECK(got.uram == static_cast<double>(want.uram));
      // FIFOs are another architecture's where the model's constraints fail (one PE along a
      // space loop the partial sums flow along): the FF estimate counts them.
      if (got.legal == 1) {
        CHECK(got.ff == static_cast<double>(want.ff));
        ++legal;
      }
      ++checked;
    }
  }
  CHECK(checked == 54);
  CHECK(legal >= 15);  // 20 with this seed
  CHECK(deepened >= 20);  // 26 with this seed
}

TEST_CASE("MM models: the tile orders of a dataflow share a compiled core where their counts allow", "[modeling]") {
  // Each dataflow's three tile orders (docs/model.md, "Evaluation"): all three for [k], [i,k] and
  // [j,k]; for [i], [j] and [i,j] the two with the dataflow's loops outside, the third apart.
  kernel k = catalog::mm();
  std::map<std::string, std::set<std::string>> cores_of;  // dataflow -> its designs' cores
  std::set<std::string> cores;
  for (const auto& d : designs(k)) {
    std::string hash = model::emit_model(performance_model(d)).core_hash;
    cores_of[d.name().substr(0, d.name().find(' '))].insert(hash);
    cores.insert(hash);
  }
  CHECK(cores.size() == 9);
  for (const char* dataflow : {"[k]", "[i,k]", "[j,k]"}) CHECK(cores_of[dataflow].size() == 1);
  for (const char* dataflow : {"[i]", "[j]", "[i,j]"}) CHECK(cores_of[dataflow].size() == 2);
}

TEST_CASE("CNN [r,i] <[o,r,c],i>: the block RAM of the FIFOs deepened along its partial sums is the model's", "[modeling]") {
  // bench_fifo_depth's first row: 12 FIFOs from cin's and w's input modules into the PEs 1 to 3
  // hops down the chain along i, 387 to 1,157 tokens deep (docs/comm.md, "FIFO depths").
  kernel k = catalog::cnn();
  for (auto [name, size] : {std::pair{"O", 8}, {"R", 12}, {"C", 12}, {"I", 16}}) k.get_param(name).set(size);
  for (const auto& d : designs(k)) {
    if (d.name() != "[r,i] <[o,r,c],i>") continue;
    design_point point = point_by_name(
        d, {{"o_t1", 4}, {"o_t2", 4}, {"r_t1", 6}, {"r_t2", 2}, {"c_t1", 6}, {"c_t2", 6}, {"i_t1", 8}, {"i_t2", 2}});
    architecture a = build_architecture(d, {point, {}, false});
    int64_t fifo_bram = 0;
    for (const auto& f : a.fifos) {
      fifo_bram += fifo_bram18k(f.lanes * 32, f.depth);
      if (f.depth > 2) CHECK(f.lanes == 2);  // two floats a token
    }
    // 64-bit tokens: 2 blocks side by side per 512 places, so 2 h blocks at hop h (387, 772 and
    // 1,157 places); cin into 3 PEs at each hop, w into one.
    CHECK(fifo_bram == 2 * (3 * (1 + 2 + 3) + (1 + 2 + 3)));
    model::design_model m = performance_model(d);
    std::vector<double> x = model_point(m, point, k);
    model::metrics got = model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9});
    resource_counts want = count_resources(a);
    CHECK(got.bram18k == static_cast<double>(want.bram18k));
    CHECK(got.ff == static_cast<double>(want.ff));
  }
}

TEST_CASE("MM model of [i,j] <[i,j],k>: the tuned point's numbers", "[modeling]") {
  kernel k = catalog::mm();
  for (const auto& d : designs(k)) {
    if (d.name() != "[i,j] <[i,j],k>") continue;
    model::design_model m = performance_model(d);
    design_point point = point_by_name(d, {{"i_t1", 129}, {"j_t1", 205}, {"k_t1", 64}, {"i_t2", 3}, {"j_t2", 41}, {"k_t2", 8}});
    std::vector<double> values = model_point(m, point, k);
    model::metrics x = model::interpreter(m).evaluate(values, {1e9, 1e9, 1e9});
    // 43 x 5 PEs, 8 lanes, 5 DSPs per fp32 multiply-add.
    CHECK(x.dsp == 43 * 5 * 8 * 5);
    // PE: per tile 8 k-steps x 3 x 41 pipelined iterations, 8 x 5 x 16 tiles, after the last PE
    // can start: the inputs' latest first tile (B's, 64 x 205 floats in 820 words of 16), the 3
    // cycles B's first word takes to reach the PEs (the DRAM port's first access, then the FIFOs
    // L3 -> L2 -> PE) and the wavefront (the last PE runs (43 - 1) + (5 - 1) FIFO hops behind the
    // first: A and B forwarded). sadsl's models count the phase's start in the mains: no prologue.
    REQUIRE(m.modules.front().name == "PE");
    double work = 8 * 3 * 41 * 8.0 * 5 * 16;
    CHECK(model::evaluate(model::cost(m.modules.front().main), values) == work + 64 * 205 / 16 + 3 + 42 + 4);
    CHECK(x.latency_prologue == 0);
    for (const auto& mod : m.modules) UNSCOPED_INFO(mod.name << " " << model::evaluate(model::cost(mod.main), values));
    CHECK(x.latency_main >= 8 * 3 * 41 * 8.0 * 5 * 16);
    CHECK(x.legal == 1);
  }
}

TEST_CASE("a design the builder does not model says why", "[modeling]") {
  kernel k = catalog::trmm();  // triangular, with partial sums along k
  k.get_param("M").set(32);
  k.get_param("N").set(32);
  auto ds = designs(k);
  REQUIRE(ds.size() > 6);
  CHECK_THROWS_WITH(performance_model(ds.at(6)), Catch::Contains("sadsl models a triangular design whose PEs pass no partial sums"));
}

TEST_CASE("a guarded design (a loop that does not start at 0) says why it has no model yet", "[modeling]") {
  kernel k = sadsl::testing::mm_from_one();
  design d = designs(k).front();
  CHECK(sadsl::testing::message_of([&] { performance_model(d); }) ==
        "design " + d.name() + ": its partial tiles are guarded (loop \"i\" does not run over [0, P) for a param P); "
        "sadsl models a guarded design only at the factors that divide its sizes, and only one whose band loops run "
        "over [0, P), bound no inner loop and are guarded only at their first or last iteration, which this one is not");
}

TEST_CASE("a guarded design whose guard splits tiles differently at each tiling has no model", "[modeling]") {
  // i < 8 falls inside a tile or on its edge depending on i_t1: the template's tiles would not say
  // what the others do. k == 0 and k == N - 1 stay in the first and last tile of whole tiles.
  auto kernel_with = [](int which) {
    kernel k("edge_guards");
    param N = k.param("N", 24);
    auto A = k.input<float>("A", {N, N});
    auto B = k.input<float>("B", {N, N});
    auto C = k.inout<float>("C", {N, N});
    loop i("i", N), j("j", N), r("k", N);
    if (which == 0) if_(i < 8, [&] { C(i, j) = max(C(i, j), A(i, r) + B(r, j)); });
    if (which == 1) if_(r == N - 1, [&] { C(i, j) = max(C(i, j), A(i, r) + B(r, j)); });
    return k;
  };
  kernel split = kernel_with(0), last = kernel_with(1);
  design d = designs(split).front();
  CHECK(sadsl::testing::message_of([&] { performance_model(d); }) ==
        "design " + d.name() + ": its partial tiles are guarded (statement S0: guard \"i < 8\"); sadsl models a guarded "
        "design only at the factors that divide its sizes, and only one whose band loops run over [0, P), bound no inner "
        "loop and are guarded only at their first or last iteration, which this one is not");
  CHECK_FALSE(check_zero_padding(d).whole_tiles_at_divisors);
  for (const auto& e : designs(last)) CHECK(check_zero_padding(e).whole_tiles_at_divisors);
}

TEST_CASE("flip-flops of operators and FIFOs: the cited figures", "[modeling]") {
  CHECK(ff_per_operation(expr_op::mul, elem_type::f32) == 143);
  CHECK(ff_per_operation(expr_op::add, elem_type::f32) == 205);
  CHECK(ff_per_operation(expr_op::sub, elem_type::f32) == 205);
  CHECK(ff_per_operation(expr_op::div, elem_type::f32) == 761);
  CHECK(ff_per_operation(expr_op::div, elem_type::i32) == 394);
  CHECK(ff_per_operation(expr_op::div, elem_type::u8) == 106);
  CHECK(ff_per_operation(expr_op::mul, elem_type::i32) == 0);  // inside the DSP48E2
  CHECK(ff_per_operation(expr_op::mul, elem_type::f64) == 0);  // no public figure
  CHECK(ff_per_operation(expr_op::max, elem_type::f32) == 0);
  CHECK(fifo_ff(32, 2) == 5);     // a shift register in LUTs: only control FFs
  CHECK(fifo_ff(256, 2) == 5);
  CHECK(fifo_ff(512, 2) == 522);  // 512 bits x 2 places: registers
  CHECK(fifo_ff(32, 32) == 42);
}

TEST_CASE("operations per DSP: the peak the DSP efficiency divides by", "[modeling]") {
  CHECK(operations_per_dsp(build_program(catalog::mm())) == 2.0 / 5);       // fp32 mul 3 + add 2
  CHECK(operations_per_dsp(build_program(catalog::mttkrp())) == 3.0 / 8);   // two fp32 mul, one add
  // f64: two multiply-subtracts (10 + 3 DSPs each); the division is fabric, its statement left out
  CHECK(operations_per_dsp(build_program(catalog::lu())) == 4.0 / 26);
  kernel mm16("mm16");
  param I = mm16.param("I", 8), J = mm16.param("J", 8), K = mm16.param("K", 8);
  auto A = mm16.input<int16_t>("A", {I, K});
  auto B = mm16.input<int16_t>("B", {K, J});
  auto C = mm16.output<int16_t>("C", {I, J});
  loop i("i", I), j("j", J), k("k", K);
  C(i, j) += A(i, k) * B(k, j);
  CHECK(operations_per_dsp(build_program(mm16)) == 2.0);  // one DSP multiplies, the fabric adds
  kernel sum("sum");
  param N = sum.param("N", 8);
  auto x = sum.input<int32_t>("x", {N});
  auto s = sum.output<int32_t>("s", {N});
  loop n("n", N);
  s(n) += x(n);
  CHECK(operations_per_dsp(build_program(sum)) == 0.0);  // no DSP: no efficiency to report
}
