// The architecture executor, the second oracle: every dataflow x tile order of every benchmark
// kernel, at three tilings (non-divisor first-level factors; SIMD > 1 and wide words; all ones),
// runs as a network of processes and computes what the reference interpreter computes — bit for
// bit, or within a relative 1e-5 where the architecture reorders a float reduction (SIMD lanes of a
// reduction inside CNN's p and q loops, as AutoSA orders them).
#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/comm/executor.hpp>
#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"
#include "support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

// "" when `got` equals `want` (exactly, or within `tolerance` relative), else the first difference.
std::string compare(const kernel& k, const buffers& got, const buffers& want, double tolerance) {
  for (const auto& t : k.tensors()) {
    if (t->role != tensor_role::output && t->role != tensor_role::inout) continue;
    std::string diff = std::visit(
        [&](const auto& w) -> std::string {
          using V = std::decay_t<decltype(w)>;
          const auto& g = std::get<V>(got.all().at(t->name).data);
          for (size_t i = 0; i < w.size(); ++i) {
            double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
            bool ok = tolerance == 0 ? g[i] == w[i] : std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
            if (!ok) return t->name + "[" + std::to_string(i) + "] = " + std::to_string(a) + ", want " + std::to_string(b);
          }
          return "";
        },
        want.all().at(t->name).data);
    if (!diff.empty()) return diff;
  }
  return "";
}

struct sweep_result {
  int runs = 0, reordered = 0, packed = 0, vectorized = 0;
};

sweep_result sweep(kernel k, std::initializer_list<std::pair<const char*, int64_t>> sizes) {
  for (auto [name, v] : sizes) k.get_param(name).set(v);
  buffers want(k);
  want.randomize_inputs(11);
  run(build_program(k), want);
  sweep_result r;
  for (const auto& d : designs(k))
    for (tiling_shape shape : {tiling_shape::non_divisor, tiling_shape::wide, tiling_shape::tiny}) {
      design_point p = tiling(d, shape);
      INFO(k.name() << " " << d.name() << " shape " << static_cast<int>(shape));
      architecture a = build_architecture(d, {p, {}});
      buffers got(k);
      got.randomize_inputs(11);
      execution_result x = execute(a, got);
      REQUIRE(x.deadlock == "");
      CHECK(compare(k, got, want, a.reduction_reordered ? 1e-5 : 0) == "");
      ++r.runs;
      r.reordered += a.reduction_reordered;
      r.vectorized += d.simd && p.at({*d.simd, tile_level::simd}) > 1;
      for (const auto& n : a.networks) r.packed += n.packs.at(n.top_level) > 1;
    }
  return r;
}

kernel mm_int16() {
  kernel k("mm_int16");
  param I = k.param("I", 8), J = k.param("J", 8), K = k.param("K", 8);
  auto A = k.input<int16_t>("A", {I, K});
  auto B = k.input<int16_t>("B", {K, J});
  auto C = k.output<int32_t>("C", {I, J});
  loop i("i", I), j("j", J), kk("k", K);
  C(i, j) += cast<int32_t>(A(i, kk)) * cast<int32_t>(B(kk, j));
  return k;
}

}  // namespace

TEST_CASE("executor: every MM design (fp32) at three tilings equals the interpreter") {
  auto r = sweep(catalog::mm(), {{"I", 9}, {"J", 11}, {"K", 12}});
  CHECK(r.runs == 18 * 3);
  CHECK(r.vectorized > 0);
  CHECK(r.packed > 0);
}

TEST_CASE("executor: every MM design (int16, int32 sums) at three tilings equals the interpreter bit for bit") {
  auto r = sweep(mm_int16(), {{"I", 7}, {"J", 10}, {"K", 12}});
  CHECK(r.runs == 18 * 3);
  CHECK(r.reordered == 0);
}

TEST_CASE("executor: every CNN design at three tilings equals the interpreter") {
  auto r = sweep(catalog::cnn(), {{"O", 4}, {"R", 5}, {"C", 4}, {"I", 4}, {"K", 3}});
  CHECK(r.runs == 30 * 3);
  CHECK(r.reordered > 0);  // SIMD over the input channels, inside p and q
}

TEST_CASE("executor: every MTTKRP design at three tilings equals the interpreter") {
  auto r = sweep(catalog::mttkrp(), {{"I", 5}, {"J", 4}, {"K", 6}, {"L", 3}});
  CHECK(r.runs == static_cast<int>(designs(catalog::mttkrp()).size()) * 3);
}

TEST_CASE("executor: every TTMc design at three tilings equals the interpreter") {
  auto r = sweep(catalog::ttmc(), {{"I", 3}, {"J", 4}, {"K", 3}, {"L", 4}, {"M", 3}});
  CHECK(r.runs == static_cast<int>(designs(catalog::ttmc()).size()) * 3);
}

TEST_CASE("executor: every FIR and GEMV design at three tilings equals the interpreter") {
  auto fir = sweep(catalog::fir(), {{"N", 13}, {"T", 5}});
  CHECK(fir.runs == static_cast<int>(designs(catalog::fir()).size()) * 3);
  auto gemv = sweep(catalog::gemv(), {{"I", 10}, {"J", 9}});
  CHECK(gemv.runs == static_cast<int>(designs(catalog::gemv()).size()) * 3);
}

TEST_CASE("executor: every design of the uniformized LU (guarded, triangular) equals the interpreter") {
  auto r = sweep(catalog::lu_uniform(), {{"N", 6}});
  CHECK(r.runs == 18 * 3);
}
