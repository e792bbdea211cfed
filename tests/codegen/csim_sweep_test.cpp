// C simulation of generated HLS code: for every benchmark kernel, every dataflow x tile order at
// three tilings (non-divisor first-level factors; SIMD > 1 and wide words; all ones; LU also at one
// tile per loop) is generated,
// compiled with g++ -O0 against sadsl's simulation headers and run in both modes (sequential as
// Vitis csim, and concurrent with bounded FIFOs). Each testbench must print PASSED (integers
// bit-exact, floats within a relative 1e-4 of its reference loop nest) and count, for every FIFO,
// exactly the tokens the architecture executor counts. The executor's own outputs must equal the
// reference interpreter's (bit for bit, or within 1e-5 where a float reduction is reordered): this
// is the executor sweep of every design at the three tilings (tests/comm runs one tiling).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <functional>

#include <fmt/format.h>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/comm/executor.hpp>
#include <sadsl/sadsl.hpp>

#include "../comm/support.hpp"
#include "../support/kernels.hpp"
#include "csim_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

struct sweep_result {
  int designs = 0;                          // generated, compiled and simulated
  int reordered = 0, packed = 0, vectorized = 0, zero_padded = 0;  // architectures of each kind among them
};

constexpr std::initializer_list<tiling_shape> three_tilings{tiling_shape::non_divisor, tiling_shape::wide, tiling_shape::tiny};

// Designs number `first` to `last` - 1 of k (all by default), at the given tilings (each changed
// by `adjust` when given).
sweep_result sweep(kernel k, const std::string& tag, std::initializer_list<std::pair<const char*, int64_t>> sizes,
                   size_t first = 0, size_t last = SIZE_MAX, std::initializer_list<tiling_shape> shapes = three_tilings,
                   const std::function<void(design_point&)>& adjust = {}) {
  auto start = std::chrono::steady_clock::now();
  for (auto [name, v] : sizes) k.get_param(name).set(v);
  buffers want(k);
  want.randomize_inputs(3);
  run(build_program(k), want);
  csim_batch batch(std::filesystem::path(SADSL_BINARY_DIR) / "codegen_sweep" / tag);
  sweep_result r;
  int n = 0;
  std::vector<design> all = designs(k);
  for (size_t i = first; i < std::min(last, all.size()); ++i)
    for (tiling_shape shape : shapes) {
      const design& d = all[i];
      INFO(k.name() << " " << d.name() << " shape " << static_cast<int>(shape));
      design_point point = tiling(d, shape);
      if (adjust) adjust(point);
      architecture a = build_architecture(d, {point, {}});
      buffers data(k);
      data.randomize_inputs(3);
      execution_result x = execute(a, data);
      REQUIRE(x.ok());
      CHECK(output_difference(k, data, want, a.reduction_reordered ? 1e-5 : 0) == "");
      r.reordered += a.reduction_reordered;
      r.zero_padded += a.padding == padding_mode::zero_padded;
      r.vectorized += d.simd && a.point.factors.at({*d.simd, tile_level::simd}) > 1;
      for (const auto& net : a.networks) r.packed += net.packs.at(net.top_level) > 1;
      batch.add(fmt::format("{}_{}", tag, n++), a, x);
    }
  REQUIRE(batch.compile(32) == "");
  for (const char* mode : {"sequential", "concurrent"}) {
    auto outcomes = batch.run(mode);
    for (const auto& name : batch.names()) {
      INFO(name << " in " << mode << " mode: " << (outcomes.count(name) ? fmt::format("{}", fmt::join(outcomes[name].lines, "\n")) : "no output"));
      REQUIRE(outcomes.count(name) == 1);
      CHECK(outcomes[name].status == "PASSED");
      CHECK(outcomes[name].fifo_tokens == batch.expected_tokens(name));
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("codegen sweep %s: %zu designs generated, compiled and simulated in both modes (%.0f s)\n", tag.c_str(),
              batch.size(), seconds);
  r.designs = static_cast<int>(batch.size());
  return r;
}

}  // namespace

TEST_CASE("csim: every MM design (fp32) at three tilings") {
  auto r = sweep(catalog::mm(), "mm_f32", {{"I", 9}, {"J", 11}, {"K", 12}});
  CHECK(r.designs == 18 * 3);
  CHECK(r.vectorized > 0);
  CHECK(r.packed > 0);
}

// One size for i, j and k: the loops pad it together (the tilings pick one factor per extent).
TEST_CASE("csim: every MM design with one size for i, j and k at three tilings") {
  auto shapes = {tiling_shape::non_divisor, tiling_shape::wide};
  auto r = sweep(mm_square(10), "mm_square", {}, 0, SIZE_MAX, shapes);
  CHECK(r.designs == 18 * 2);
  CHECK(r.vectorized > 0);
  // Each loop padded on its own: i_t1 = 5 keeps 10, j_t1 = 4 and k_t1 = 3 pad it to 12 (the kernel
  // runs at 12, i within 10), every inner factor 1.
  auto apart = [](design_point& p) {
    for (auto& [f, v] : p)
      if (f.level == tile_level::array_partition) v = f.loop.name() == "i" ? 5 : f.loop.name() == "j" ? 4 : 3;
  };
  auto a = sweep(mm_square(10), "mm_square_apart", {}, 0, SIZE_MAX, {tiling_shape::tiny}, apart);
  CHECK(a.designs == 18);
  CHECK(a.zero_padded == 18);
}

TEST_CASE("csim: every MM design (int16 inputs, int32 sums) at three tilings") {
  auto r = sweep(mm_typed("mm_int16", elem_type::i16), "mm_i16", {{"I", 7}, {"J", 10}, {"K", 12}});
  CHECK(r.designs == 18 * 3);
  CHECK(r.reordered == 0);  // integer sums: bit for bit
}

TEST_CASE("csim: every MM design (int8 inputs, int32 sums) at three tilings") {
  CHECK(sweep(mm_typed("mm_int8", elem_type::i8), "mm_i8", {{"I", 8}, {"J", 6}, {"K", 16}}).designs == 18 * 3);
}

// CNN has 30 designs: two tests, so that ctest runs them in parallel.
TEST_CASE("csim: CNN designs 0 to 14 at three tilings") {
  auto r = sweep(catalog::cnn(), "cnn_a", {{"O", 4}, {"R", 5}, {"C", 4}, {"I", 4}, {"K", 3}}, 0, 15);
  CHECK(r.designs == 15 * 3);
}

TEST_CASE("csim: CNN designs 15 to 29 at three tilings") {
  auto r = sweep(catalog::cnn(), "cnn_b", {{"O", 4}, {"R", 5}, {"C", 4}, {"I", 4}, {"K", 3}}, 15, 30);
  CHECK(r.designs == 15 * 3);
}

TEST_CASE("csim: every MTTKRP design at three tilings") {
  CHECK(sweep(catalog::mttkrp(), "mttkrp", {{"I", 5}, {"J", 4}, {"K", 6}, {"L", 3}}).designs ==
        static_cast<int>(designs(catalog::mttkrp()).size()) * 3);
}

TEST_CASE("csim: every TTMc design at three tilings") {
  CHECK(sweep(catalog::ttmc(), "ttmc", {{"I", 3}, {"J", 4}, {"K", 3}, {"L", 4}, {"M", 3}}).designs ==
        static_cast<int>(designs(catalog::ttmc()).size()) * 3);
}

TEST_CASE("csim: every FIR and GEMV design at three tilings") {
  CHECK(sweep(catalog::fir(), "fir", {{"N", 13}, {"T", 5}}).designs == static_cast<int>(designs(catalog::fir()).size()) * 3);
  CHECK(sweep(catalog::gemv(), "gemv", {{"I", 10}, {"J", 9}}).designs ==
        static_cast<int>(designs(catalog::gemv()).size()) * 3);
}

// The fourth tiling has one tile per loop (AutoSA's LU array): the chains of V and U_tmp end in
// PEs that forward nothing.
TEST_CASE("csim: every design of the uniformized LU (guarded, triangular) at four tilings") {
  auto shapes = {tiling_shape::non_divisor, tiling_shape::wide, tiling_shape::tiny, tiling_shape::whole};
  CHECK(sweep(catalog::lu_uniform(), "lu", {{"N", 6}}, 0, SIZE_MAX, shapes).designs == 18 * 4);
}

// Guarded reductions over triangular domains (no SIMD: guarded designs refuse it).
TEST_CASE("csim: every causal convolution and transposed TRMV design at two tilings") {
  auto shapes = {tiling_shape::non_divisor, tiling_shape::whole};
  CHECK(sweep(catalog::causal_conv(), "causal_conv", {{"N", 11}, {"K", 4}}, 0, SIZE_MAX, shapes).designs == 6 * 2);
  CHECK(sweep(catalog::trmv_t(), "trmv_t", {{"N", 9}}, 0, SIZE_MAX, shapes).designs ==
        static_cast<int>(designs(catalog::trmv_t()).size()) * 2);
}

// A max-reduction written out on an inout C (guarded: not a += of products), with its partial
// maxima flowing between PEs along k where k is in space.
TEST_CASE("csim: every max-plus MM design at two tilings") {
  auto shapes = {tiling_shape::non_divisor, tiling_shape::whole};
  CHECK(sweep(tropical_mm(6), "tropical_mm", {{"N", 7}}, 0, SIZE_MAX, shapes).designs == 18 * 2);
}

// Reads that take an earlier read's register (routing's shared reads): MM whose product reads
// A(i, k) twice, SIMD lanes and wide words included (zero-padded); and E = A + B at k's last
// iteration beside the if/else MM (guarded), whose E statement reads A(i, k) and B(k, j) where the
// accumulation reads them. Every FIFO carries the executor's tokens.
TEST_CASE("csim: every design of two kernels whose statements read one element in one iteration") {
  CHECK(sweep(mm_fused_reads(6), "mm_fused_reads", {{"N", 7}}).designs == 18 * 3);
  auto shapes = {tiling_shape::non_divisor, tiling_shape::whole};
  CHECK(sweep(mm_init_and_last(6), "mm_init_and_last", {{"N", 7}}, 0, SIZE_MAX, shapes).designs == 18 * 2);
}
