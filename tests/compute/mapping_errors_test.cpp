// User errors found when a kernel is mapped to systolic arrays (bands, space-time candidates).
#include <catch2/catch.hpp>

#include <sadsl/compute/verify.hpp>
#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {
std::string at(int line) { return "mapping_errors_test.cpp:" + std::to_string(line) + ": "; }
}  // namespace

TEST_CASE("a dependence that is not uniform, at the statements' lines") {
  kernel k("lu");  // PolyBench's LU, as catalog::lu()
  param N = k.param("N", 64);
  auto A = k.inout<double>("A", {N, N});
  loop i("i", N), j("j", 0, i), kk("k", 0, j);
  A(i, j) -= A(i, kk) * A(kk, j); int sink = __LINE__;
  A(i, j) = A(i, j) / A(j, j);
  loop j2("j2", i, N), k2("k2", 0, i);
  A(i, j2) -= A(i, k2) * A(k2, j2); int source = __LINE__;
  CHECK(message_of([&] { designs(k); }) ==
        at(sink) + "kernel \"lu\" cannot be mapped to a systolic array: the flow dependence of S0 (A(i, j) -= A(i, k) * "
                   "A(k, j)) on A(k, j) from S2 (A(i, j2) -= A(i, k2) * A(k2, j2)) is not uniform over the loops [i]: "
                   "distance [N] -> { band[i] : 2 <= i <= -2 + N } (S2 is recorded at " +
            at(source).substr(0, at(source).size() - 2) + ")");
  kernel one("one");  // source and sink are the same statement
  param M = one.param("M", 8);
  auto B = one.inout<float>("B", {2 * M});
  loop x("x", M);
  B(x) += B(2 * x); int line = __LINE__;
  CHECK(message_of([&] { designs(one); }) ==
        at(line) + "kernel \"one\" cannot be mapped to a systolic array: the anti dependence of S0 (B(x) += B(2*x)) on "
                   "B(x) from S0 (B(x) += B(2*x)) is not uniform over the loops [x]: distance [M] -> { band[x] : 0 < x < "
                   "M and 2x < M }");
}

TEST_CASE("space dimensions outside [1, 3]") {
  kernel k = catalog::mm();
  for (int dims : {0, 4, -1})
    CHECK(message_of([&] { designs(k, {.max_space_dims = dims}); }) ==
          "designs of kernel \"mm\": design_options::max_space_dims = " + std::to_string(dims) +
              ", but a systolic array has 1, 2 or 3 space dimensions");
  auto b = std::make_shared<const band>(outermost_band(build_program(k)));
  CHECK(message_of([&] { space_time_candidates(b, 0); }) ==
        "space_time_candidates: max_dims = 0, but a systolic array has 1, 2 or 3 space dimensions");
}

TEST_CASE("a reuse empty at every valid size does not stop the designs (random kernel seed 15525)") {
  kernel k = empty_reuse();  // designs() once threw an isl error placing that empty dependence
  std::vector<design> ds = designs(k);
  REQUIRE(ds.size() == 1);  // [l] <[l]>
  for (const auto& d : ds) CHECK(verify_design(d, sample_point(d)) == "");
}
