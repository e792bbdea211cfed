// Every dataflow x permutation of MM, CNN, MTTKRP, TTMc, FIR and the uniformized LU (with its local
// tensors expanded), after each pass (space-time,
// array partitioning, latency hiding, SIMD), on random tilings (non-divisors, T1 > N, T1 = 1,
// T1 = N included), executed by the reference interpreter with its instance check (every instance
// of every domain exactly once): equal to the untransformed kernel, bit for bit (every schedule
// keeps each accumulation in its order, so floats are exact too).
#include <catch2/catch.hpp>

#include <random>

#include <sadsl/compute/verify.hpp>
#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using sadsl::testing::run_checked;

namespace {

int64_t pick(std::mt19937_64& rng, int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng() % (hi - lo + 1)); }

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

int64_t extent_of(const design& d, const loop_id& loop) {
  return d.band->extent(loop).evaluate([](const detail::symbol_node& s) { return detail::size_of(s); });
}

// A random valid tiling; `shape` picks T1 = 1, T1 = N, T1 > N or any value (often a non-divisor).
design_point random_tiling(const design& d, std::mt19937_64& rng, int shape) {
  design_point v;
  for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd}) {
    for (const auto& f : d.factors) {  // outer levels first: a factor divides its parent
      if (f.id.level != level) continue;
      if (!f.parent) {
        int64_t n = extent_of(d, f.id.loop);
        v[f.id] = shape == 0 ? 1 : shape == 1 ? n : shape == 2 ? n + pick(rng, 1, 3) : pick(rng, 1, n);
        continue;
      }
      std::vector<int64_t> allowed;
      for (int64_t x : divisors(v.at(*f.parent)))
        if ((!f.power_of_two || (x & (x - 1)) == 0) && (f.max_value == 0 || x <= f.max_value)) allowed.push_back(x);
      v[f.id] = allowed[rng() % allowed.size()];
    }
  }
  return v;
}

struct checker {
  kernel k;
  program p;
  buffers expected;
  int runs = 0;

  explicit checker(kernel kk) : k(std::move(kk)), p(build_program(k)), expected(k) {
    expected.randomize_inputs(42);
    run_checked(p, expected);
  }

  void check(const design& d, const design_point& v) {
    INFO(k.name() << " " << d.name() << " " << d.str());
    for (const auto& [f, value] : v) INFO(d.name_of(f) << " = " << value);
    buffers data(k);
    data.randomize_inputs(42);
    auto layouts = stored_layouts(d);
    for (const auto& l : layouts) data.permute(l.tensor.name(), l.order);
    run_checked(*d.band->source, concrete_schedule(d, v), data, layouts);  // the design's (expanded) program
    for (const auto& t : k.tensors())
      if (t->role != tensor_role::input && t->role != tensor_role::local)
        CHECK(data.all().at(t->name).data == expected.all().at(t->name).data);
    ++runs;
  }
};

void check_kernel(kernel k, std::initializer_list<std::pair<const char*, int64_t>> sizes, int tilings) {
  for (auto [name, v] : sizes) k.get_param(name).set(v);
  checker c(k);
  std::mt19937_64 rng(7);
  program p = expand_local_tensors(build_program(k));
  auto b = std::make_shared<const band>(outermost_band(p));
  for (const auto& dataflow : space_time_candidates(b)) {
    c.check(dataflow, {});  // after space-time
    for (const auto& order : tile_orders(dataflow)) {
      design partitioned = array_partition(dataflow, order).value();
      auto lh = latency_hiding(partitioned);  // illegal without a parallel loop (the LU)
      design hidden = lh ? lh.value() : partitioned;
      auto vec = simd(hidden);
      design vectorized = vec ? vec.value() : hidden;
      for (int t = 0; t < tilings; ++t) {
        c.check(partitioned, random_tiling(partitioned, rng, t % 4));
        c.check(hidden, random_tiling(hidden, rng, t % 4));
        c.check(vectorized, random_tiling(vectorized, rng, t % 4));
      }
    }
  }
  CHECK(c.runs > 0);
}

}  // namespace

// Random tilings per design: MM and FIR more, the larger kernels two (tests/compute/
// exhaustive_tilings_test.cpp covers every tiling of small instances).
TEST_CASE("passes preserve semantics: MM") { check_kernel(catalog::mm(), {{"I", 7}, {"J", 6}, {"K", 8}}, 4); }
TEST_CASE("passes preserve semantics: CNN") {
  check_kernel(catalog::cnn(), {{"O", 4}, {"R", 3}, {"C", 5}, {"I", 4}, {"K", 2}}, 2);
}
TEST_CASE("passes preserve semantics: MTTKRP") {
  check_kernel(catalog::mttkrp(), {{"I", 4}, {"J", 3}, {"K", 5}, {"L", 4}}, 2);
}
TEST_CASE("passes preserve semantics: TTMc") {
  check_kernel(catalog::ttmc(), {{"I", 3}, {"J", 4}, {"K", 2}, {"L", 3}, {"M", 4}}, 2);
}
TEST_CASE("passes preserve semantics: FIR") { check_kernel(catalog::fir(), {{"N", 13}, {"T", 5}}, 8); }

TEST_CASE("passes preserve semantics: uniformized LU on its triangular domain") {
  check_kernel(catalog::lu_uniform(), {{"N", 6}}, 2);
}

TEST_CASE("passes preserve semantics: integer MM, bit-exact") {
  kernel k("imm");
  param I = k.param("I", 6), J = k.param("J", 5), K = k.param("K", 8);
  auto A = k.input<int16_t>("A", {I, K});
  auto B = k.input<int16_t>("B", {K, J});
  auto C = k.output<int32_t>("C", {I, J});
  loop i("i", I), j("j", J), kk("k", K);
  C(i, j) += cast<int32_t>(A(i, kk)) * cast<int32_t>(B(kk, j));
  checker c(k);
  std::mt19937_64 rng(3);
  for (const auto& d : designs(k))
    for (int t = 0; t < 4; ++t) c.check(d, random_tiling(d, rng, t));
  CHECK(c.runs == 18 * 4);
}

TEST_CASE("verify_design compares an inout tensor the band only reads in the kernel's layout") {
  // B is read at (j, i) with j the SIMD reduction loop: its host layout moves j last. B is inout,
  // so its final value (its initial one) is an output: compared as stored, it once differed.
  // Each loop has a size of its own, so that the design can be padded with zeros (and has SIMD).
  kernel k("layout");
  param N = k.param("N", 6), M = k.param("M", 5);
  auto B = k.inout<int32_t>("B", {M, N});
  auto C = k.output<int32_t>("C", {N});
  loop i("i", N), j("j", M);
  C(i) += B(j, i);
  size_t with_layout = 0;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    with_layout += d.layouts.empty() ? 0 : 1;
    CHECK(verify_design(d, sample_point(d)) == "");
  }
  CHECK(with_layout > 0);
}
