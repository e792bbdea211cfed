// Where the band places an implicit initialization (C = 0 before C += ...): at the first instance
// of its reduction, so that a reduction whose first k is a guard's bound (k >= i) still has a
// uniform flow dependence from its initialization.
#include <catch2/catch.hpp>

#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

// The one place this test reads the band's dependences: the distances (isl's text) of the flow
// dependence from statement `source` to statement `sink`.
std::string flow_distances(const kernel& k, const std::string& source, const std::string& sink) {
  program p = build_program(k);
  for (const auto& d : outermost_band(p).deps)
    if (d.dep.kind == dep_kind::flow && d.dep.source.name() == source && d.dep.sink.name() == sink) return isl_str(d.deltas);
  return "(no flow dependence)";
}

}  // namespace

TEST_CASE("init placement: TRMM guarded by k >= i initializes C at k = i") {
  kernel k = trmm_guarded();
  CHECK(flow_distances(k, "S0", "S1") == "[M, N] -> { band[i = 0, j = 0, k = 0] : M > 0 and N > 0 }");
  CHECK(designs(k).size() == 18);
}

TEST_CASE("init placement: a reduction empty for some outputs (k >= i + 1) maps and computes the kernel") {
  kernel k("strict_upper");
  param M = k.param("M", 5);
  auto A = k.input<float>("A", {M, M});
  auto y = k.output<float>("y", {M});
  loop i("i", M), kk("k", M);
  if_(kk >= i + 1, [&] { y(i) += A(i, kk); });  // y(M - 1) is the empty sum
  CHECK(flow_distances(k, "S0", "S1") == "[M] -> { band[i = 0, k = 0] : M >= 2 }");
  buffers expected(k);
  expected.randomize_inputs(4);
  run_checked(build_program(k), expected);
  for (const auto& d : designs(k)) {
    INFO(d.name());
    buffers data(k);
    data.randomize_inputs(4);
    run_checked(*d.band->source, concrete_schedule(d, {{"i_t1", 2}, {"k_t1", 3}, {"i_t2", 1}}), data,  // guarded: no SIMD (k_t2)
                stored_layouts(d));
    CHECK(data.get<float>("y") == expected.get<float>("y"));
  }
}

TEST_CASE("init placement: a piecewise first instance (k >= max(i, j)) is not placed, and the kernel is rejected") {
  kernel k("corner");
  param N = k.param("N", 6);
  auto A = k.input<float>("A", {N, N});
  auto C = k.output<float>("C", {N, N});
  loop i("i", N), j("j", N), kk("k", N);
  if_(kk >= i && kk >= j, [&] { C(i, j) += A(i, kk); });
  CHECK_THAT(message_of([&] { designs(k); }),
             Catch::Contains("the flow dependence of S1 (C(i, j) += A(i, k)) on C(i, j) from S0 (C(i, j) = 0.0f) is "
                             "not uniform over the loops [i, j, k]"));
}
