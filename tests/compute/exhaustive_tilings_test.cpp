// Exhaustive small tilings: every design of every catalogue kernel and of guarded and triangular
// kernels, on systematic first-level factors (non-divisors, 1, the extent and past it), with
// latency and SIMD factors cycling through their legal values. Each run is executed by the
// interpreter with its instance check (every domain instance exactly once, nothing outside) and
// compared bit for bit with the untransformed kernel.
//
// First-level factors take every value in [1, X + 1] for a band loop of extent X (X at the outer
// loops' first iteration). isl's code generation costs 10-150 ms per run, which rules out the full
// product of those values for every design of the three- and four-loop kernels:
//   - two-loop bands (the guarded sum, the causal convolution, L^T x): every combination, for
//     every design;
//   - the others: one rotation per design (see `rotation`): every loop takes each of its values
//     in it, and consecutive designs get different rotations, so that the kernel runs every
//     combination once when it has at least as many designs as rotations (FIR, CNN, MTTKRP,
//     TTMc), and designs x rows of them otherwise (MM, TRMM, LU).
// Inner factors: the (row + design + factor)-th legal value of each, cyclically (a deterministic
// subset: all of them would multiply the runs by up to 3 per inner factor).
// Sizes are the smallest at which the interpreter bug showed on the triangular kernels (TRMM at
// M = 5, LU at N = 4); with it restored, the guarded sum, causal convolution, L^T x, both TRMMs and
// the LU fail.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using sadsl::testing::run_checked;

namespace {

// ---- the one place this test reads the design API ---------------------------------------------

struct factor_spec {
  std::string name, loop, parent;  // parent: the factor it divides, "" for first-level factors
  bool first_level = false;
  bool power_of_two = false;
  int64_t limit = 0;  // > 0: an upper bound (SIMD lanes)
};

std::vector<factor_spec> factors_of(const design& d) {
  std::vector<factor_spec> out;
  for (const auto& f : d.factors)
    out.push_back({d.name_of(f.id), f.id.loop.name(), f.parent ? d.name_of(*f.parent) : "",
                   f.id.level == tile_level::array_partition, f.power_of_two, f.max_value});
  return out;
}

std::vector<std::string> band_loops(const design& d) { return d.band->loop_names(); }

// The extent of a band loop at the outer loops' first iteration (hi - lo with loops at 0): the
// largest one for the kernels here, whose lower bounds grow with the outer loops (j in [k, N)).
int64_t extent_of(const design& d, const std::string& loop) {
  const auto& l = *d.band->loops[d.band->position(d.band->loop(loop))];
  return (l.hi - l.lo).evaluate(
      [](const detail::symbol_node& s) { return s.kind == detail::symbol_kind::param ? detail::size_of(s) : int64_t{0}; });
}

// ---- tilings ----------------------------------------------------------------------------------

using tiling = std::vector<int64_t>;  // first-level factor values, one per band loop

// Every combination of values in [1, range[l]].
std::vector<tiling> every_combination(const std::vector<int64_t>& range) {
  std::vector<tiling> out{{}};
  for (int64_t r : range) {
    std::vector<tiling> next;
    for (const auto& t : out)
      for (int64_t v = 1; v <= r; ++v) {
        next.push_back(t);
        next.back().push_back(v);
      }
    out = std::move(next);
  }
  return out;
}

// The rotations of the values [1, range[l]] of the band loops (range[0] the largest): rotation
// `index` has range[0] rows; in row `row` loop l takes ((row + offset_l) mod range_l) + 1, where
// the offsets are the mixed-radix digits of index (offset_0 = 0). Every loop takes each of its
// values in every rotation, and rotations 0 .. range[1] * ... * range[n-1] - 1 together hold
// every combination exactly once.
std::vector<tiling> rotation(const std::vector<int64_t>& range, int64_t index) {
  std::vector<int64_t> offset(range.size(), 0);
  for (size_t l = 1; l < range.size(); ++l) {
    offset[l] = index % range[l];
    index /= range[l];
  }
  std::vector<tiling> out;
  for (int64_t row = 0; row < range[0]; ++row) {
    tiling t;
    for (size_t l = 0; l < range.size(); ++l) t.push_back((row + offset[l]) % range[l] + 1);
    out.push_back(std::move(t));
  }
  return out;
}

int64_t rotation_count(const std::vector<int64_t>& range) {
  return std::accumulate(range.begin() + 1, range.end(), int64_t{1}, std::multiplies<>());
}

std::vector<int64_t> divisors(int64_t n, bool power_of_two, int64_t limit) {
  std::vector<int64_t> out;
  for (int64_t x = 1; x <= n; ++x)
    if (n % x == 0 && (!power_of_two || (x & (x - 1)) == 0) && (limit == 0 || x <= limit)) out.push_back(x);
  return out;
}

// All factor values: first-level ones from `t` (one per loop of `loops`), each inner one the
// (seed + i)-th of its legal values (cyclically), parents before children (latency before SIMD).
factor_values complete(const std::vector<factor_spec>& factors, const std::vector<std::string>& loops,
                       const tiling& t, size_t seed) {
  factor_values v;
  for (const auto& f : factors)
    if (f.first_level) v[f.name] = t.at(std::find(loops.begin(), loops.end(), f.loop) - loops.begin());
  for (size_t pass = 0; v.size() < factors.size(); ++pass) {
    REQUIRE(pass < factors.size());
    for (size_t i = 0; i < factors.size(); ++i) {
      const auto& f = factors[i];
      if (v.count(f.name) || !v.count(f.parent)) continue;
      auto choices = divisors(v.at(f.parent), f.power_of_two, f.limit);
      v[f.name] = choices[(seed + i) % choices.size()];
    }
  }
  return v;
}

std::string text(const factor_values& v) {
  std::string out;
  for (const auto& [name, value] : v) out += (out.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return out;
}

// ---- the check ----------------------------------------------------------------------------------

struct kernel_case {
  std::function<kernel()> make;
  std::vector<std::pair<std::string, int64_t>> sizes;
  int rotations;  // 0: every combination for every design; n: n rotations per design
  std::function<void(buffers&)> fill = [](buffers& b) { b.randomize_inputs(42); };
};

// The band loops (the same for every design of a kernel), the one with the largest range first,
// and their ranges X + 1.
std::pair<std::vector<std::string>, std::vector<int64_t>> loops_and_ranges(const design& d) {
  std::vector<std::string> loops = band_loops(d);
  std::stable_sort(loops.begin(), loops.end(),
                   [&](const auto& a, const auto& b) { return extent_of(d, a) > extent_of(d, b); });
  std::vector<int64_t> range;
  for (const auto& l : loops) range.push_back(extent_of(d, l) + 1);
  return {loops, range};
}

// The tilings of design number `d` of `designs`: every combination, or rotations d, d + designs,
// d + 2 * designs, ... (modulo their count), so that the designs of a kernel run different ones
// and together run every combination when rotations * designs >= rotation_count.
std::vector<tiling> tilings_of(int rotations, const std::vector<int64_t>& range, size_t d, size_t designs) {
  if (rotations == 0) return every_combination(range);
  std::vector<tiling> out;
  for (int q = 0; q < rotations; ++q) {
    auto r = rotation(range, static_cast<int64_t>(d + q * designs) % rotation_count(range));
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

struct coverage_count {
  int runs = 0;
  std::set<tiling> combinations;  // distinct first-level tilings run (on some design)
};

// Runs every design of the kernel on its tilings.
coverage_count check_kernel(const kernel_case& c) {
  kernel k = c.make();
  for (const auto& [name, v] : c.sizes) k.get_param(name).set(v);
  buffers expected(k);
  c.fill(expected);
  run_checked(build_program(k), expected);
  coverage_count out;
  auto all = designs(k);
  REQUIRE(!all.empty());
  for (size_t d = 0; d < all.size(); ++d) {
    const design& dsg = all[d];
    auto factors = factors_of(dsg);
    auto [loops, range] = loops_and_ranges(dsg);
    auto tilings = tilings_of(c.rotations, range, d, all.size());
    for (size_t t = 0; t < tilings.size(); ++t) {
      factor_values v = complete(factors, loops, tilings[t], t + d);
      INFO(k.name() << " " << dsg.name() << " " << text(v));
      buffers data(k);
      c.fill(data);
      auto layouts = stored_layouts(dsg);
      for (const auto& l : layouts) data.permute(l.tensor.name(), l.order);
      run_checked(*dsg.band->source, concrete_schedule(dsg, v), data, layouts);
      for (const auto& tensor : k.tensors())
        if (tensor->role != tensor_role::input && tensor->role != tensor_role::local)
          REQUIRE(data.all().at(tensor->name).data == expected.all().at(tensor->name).data);
      ++out.runs;
      tiling by_band_order;
      for (const auto& l : band_loops(dsg))
        for (const auto& f : factors)
          if (f.first_level && f.loop == l) by_band_order.push_back(v.at(f.name));
      out.combinations.insert(by_band_order);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("exhaustive tilings: rotations give every value per loop and every combination together") {
  std::vector<int64_t> range{4, 3, 2};
  std::set<tiling> all;
  for (int64_t index = 0; index < rotation_count(range); ++index) {
    auto r = rotation(range, index);
    CHECK(r.size() == 4);
    for (size_t l = 0; l < range.size(); ++l) {
      std::set<int64_t> values;
      for (const auto& t : r) values.insert(t[l]);
      CHECK(static_cast<int64_t>(values.size()) == range[l]);
    }
    all.insert(r.begin(), r.end());
  }
  CHECK(rotation_count(range) == 6);
  CHECK(all.size() == 4 * 3 * 2);
  CHECK(every_combination(range).size() == 4 * 3 * 2);
}

// The cases of the interpreter bug (isl's n-ary min and max were folded over two arguments).
const design& design_named(const std::vector<design>& all, const std::string& name) {
  auto it = std::find_if(all.begin(), all.end(), [&](const design& d) { return d.name() == name; });
  REQUIRE(it != all.end());
  return *it;
}

TEST_CASE("regression: a partial tile of a guarded reduction runs no instance outside the domain") {
  kernel f = testing::guarded_sum();  // N = 8, T = 5: y(i) = sum of h(k) for k <= min(i, 4)
  auto all = designs(f);
  const design& d = design_named(all, "[i] <[i],k>");
  factor_values v{{"i_t1", 1}, {"k_t1", 2}, {"i_t2", 1}};  // guarded: no SIMD factor (k_t2)
  for (bool checked : {false, true}) {
    buffers data(f);
    auto& h = data.get<int32_t>("h");
    for (size_t k = 0; k < h.size(); ++k) h[k] = 1 << k;
    run(*d.band->source, concrete_schedule(d, v), data, run_options{stored_layouts(d), checked});
    CHECK(data.get<int32_t>("y") == std::vector<int32_t>{1, 3, 7, 15, 31, 31, 31, 31});  // 63 with k = 5 run
  }
}

TEST_CASE("regression: uniformized LU with partial tiles computes the kernel's L and U") {
  kernel k = catalog::lu_uniform();
  k.get_param("N").set(6);
  buffers expected(k), data(k);
  expected.randomize_inputs(3);
  data.randomize_inputs(3);
  run_checked(build_program(k), expected);
  auto all = designs(k);
  const design& d = design_named(all, "[j] <[k,i],j>");
  run_checked(*d.band->source, concrete_schedule(d, {{"i_t1", 3}, {"j_t1", 1}, {"k_t1", 5}}), data,
              stored_layouts(d));
  CHECK(data.get<float>("L") == expected.get<float>("L"));
  CHECK(data.get<float>("U") == expected.get<float>("U"));
}

// The kernels of the interpreter bug (guards and triangular bounds, two-loop bands): every
// combination of first-level factors for every design.
TEST_CASE("exhaustive tilings: the guarded sum of the interpreter bug") {
  kernel_case c{testing::guarded_sum, {{"N", 6}, {"T", 4}}, 0, [](buffers& b) {
    auto& h = b.get<int32_t>("h");
    for (size_t k = 0; k < h.size(); ++k) h[k] = 1 << k;  // an extra or missing instance changes a bit
  }};
  CHECK(check_kernel(c).runs == 6 * 7 * 5);
}

TEST_CASE("exhaustive tilings: causal convolution (guard k <= i)") {
  CHECK(check_kernel({catalog::causal_conv, {{"N", 5}, {"K", 4}}, 0}).runs == 6 * 6 * 5);
}

TEST_CASE("exhaustive tilings: L^T x with i from j to N") {
  CHECK(check_kernel({catalog::trmv_t, {{"N", 5}}, 0}).runs == 6 * 6 * 6);
}

// Three- and four-loop bands: rotations dealt to the designs.
TEST_CASE("exhaustive tilings: TRMM with k from i to M as a loop bound") {
  auto r = check_kernel({catalog::trmm, {{"M", 5}, {"N", 3}}, 1});
  CHECK(r.runs == 18 * 6);
  CHECK(r.combinations.size() == 18 * 6);  // of 6 * 6 * 4
}

TEST_CASE("exhaustive tilings: TRMM with the guard k >= i (C = 0 placed at k = i)") {
  auto r = check_kernel({testing::trmm_guarded, {{"M", 5}, {"N", 3}}, 1});
  CHECK(r.runs == 18 * 6);
  CHECK(r.combinations.size() == 18 * 6);
}

TEST_CASE("exhaustive tilings: uniformized LU") {
  auto r = check_kernel({catalog::lu_uniform, {{"N", 4}}, 1});
  CHECK(r.runs == 18 * 5);
  CHECK(r.combinations.size() == 18 * 5);  // of 5 * 5 * 5
}

TEST_CASE("exhaustive tilings: FIR") {
  auto r = check_kernel({catalog::fir, {{"N", 7}, {"T", 5}}, 1});
  CHECK(r.runs == 8 * 6);
  CHECK(r.combinations.size() == 8 * 6);
}

TEST_CASE("exhaustive tilings: MM") {
  auto r = check_kernel({catalog::mm, {{"I", 4}, {"J", 4}, {"K", 4}}, 1});
  CHECK(r.runs == 18 * 5);
  CHECK(r.combinations.size() == 18 * 5);  // of 5 * 5 * 5
}

TEST_CASE("exhaustive tilings: CNN") {  // band [o, r, c, i]
  auto r = check_kernel({catalog::cnn, {{"O", 2}, {"R", 2}, {"C", 2}, {"I", 2}, {"K", 2}}, 1});
  CHECK(r.runs == 30 * 3);
  CHECK(r.combinations.size() == 3 * 3 * 3 * 3);
}

TEST_CASE("exhaustive tilings: MTTKRP") {  // band [i, j, k]
  auto r = check_kernel({catalog::mttkrp, {{"I", 2}, {"J", 2}, {"K", 2}, {"L", 2}}, 1});
  CHECK(r.runs == 24 * 3);
  CHECK(r.combinations.size() == 3 * 3 * 3);
}

TEST_CASE("exhaustive tilings: TTMc") {  // band [i, j, k, l]
  auto r = check_kernel({catalog::ttmc, {{"I", 2}, {"J", 2}, {"K", 2}, {"L", 2}, {"M", 2}}, 1});
  CHECK(r.runs == 40 * 3);
  CHECK(r.combinations.size() == 3 * 3 * 3 * 3);
}

TEST_CASE("exhaustive tilings: PolyBench LU is rejected") {
  CHECK_THROWS_WITH(designs(catalog::lu()), Catch::Contains("kernel \"lu\" cannot be mapped to a systolic array"));
}
