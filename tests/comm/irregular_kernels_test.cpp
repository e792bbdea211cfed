// Kernels whose statements share a tensor irregularly (several writers at different indices, a
// statement that reads a tensor twice, statements that run their inner loops one after another):
// each design's architecture computes what the kernel computes, or building it is refused with a
// sadsl::error that says why. Found by running random kernels through the compiler (the sweep at
// the end): before these checks such designs failed isl or an internal assertion, deadlocked, or
// computed wrong values.
#include <catch2/catch.hpp>

#include <sadsl/compute/verify.hpp>

#include "../support/random_kernel.hpp"
#include "../support/test_support.hpp"
#include "support.hpp"

using namespace sadsl;
using sadsl::testing::find_design;

namespace {

// The architecture of design `name` at its sample point: "" when it computes what the kernel
// computes, else the refusal's message (or the difference).
std::string build_and_verify(const kernel& k, const std::string& name) {
  design d = find_design(k, name);
  design_point p = sample_point(d);
  std::string problem = verify_design(d, p);
  if (!problem.empty()) return "design: " + problem;
  try {
    return verify_architecture(build_architecture(d, {p, {}, false}));
  } catch (const sadsl::internal_error& e) {
    return std::string("internal error: ") + e.what();
  } catch (const sadsl::error& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("a kernel that runs no instance at its sizes has no architecture") {
  kernel k("empty");
  param N = k.param("N", 4);
  auto A = k.input<float>("A", {N, N});
  auto C = k.inout<float>("C", {N});
  loop i("i", N), j("j", 1, N);
  C(i) += A(i, j);
  design d = find_design(k, "[i] <[i],j>");
  k.get_param("N").set(1);  // j runs over [1, 1)
  CHECK(message_of([&] { build_architecture(d, {sample_point(d), {}, false}); }) ==
        "design [i] <[i],j>: kernel \"empty\" runs no instance of its band at N = 1 (the statements' domains are empty "
        "there): there is no architecture to build");
}

TEST_CASE("a statement placed in a nest whose loop bound needs a loop it lacks is refused") {
  kernel k("missing");
  param N = k.param("N", 4);
  auto A = k.input<float>("A", {N, N});
  auto C = k.inout<float>("C", {N});
  loop a("a", N), b("b", N), c("c", b, N);
  C(a) += 2.0f;        // S0: loop a only, before the nest of S1 (placed at b = 0, c = b)
  C(b) += A(a, c);     // S1: a, b and c from b
  CHECK(message_of([&] { designs(k); }).ends_with(
      "kernel \"missing\": statement S0 (C(a) += 2.0f) lacks loop \"c\" of the nest, whose bound depends on loop \"b\" "
      "that S0 lacks too; a systolic array runs every statement of its band at a point of the whole nest"));
}

TEST_CASE("statements that nest different loops below the band are refused by designs()") {
  kernel k("two_nests");
  param N = k.param("N", 4);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.inout<float>("C", {N});
  loop a("a", N), b("b", N), c("c", N);
  C(a) += A(a, b);  // S0: a, then b
  C(a) += B(a, c);  // S1: a, then c, after all of b
  CHECK(message_of([&] { designs(k); }).ends_with(
      "kernel \"two_nests\": statements S1 (C(a) += B(a, c)) and S0 (C(a) += A(a, b)) nest different loops below the "
      "band (\"c\" and \"b\"); the PEs of a systolic array run one loop nest below its band"));
}

TEST_CASE("statements whose inner loops must run one after the other are refused") {
  // Per a: S0 over b, then S1, then S2 over b. The PEs run b once for all three, S1 at its last
  // iteration, which would run S2 at b = 1 (C(a + 1)) before S1 writes C(a + 1).
  kernel k("sequence");
  param N = k.param("N", 3);
  auto C = k.inout<float>("C", {2 * N + 4});
  loop a("a", 1, N + 1), b("b", N);
  under(b, [&] { C(a + 2) += 0.0f; });
  C(a + 1) = -1.0f;
  C(a + b) -= 2.0f;
  CHECK(build_and_verify(k, "[a] <[],a>") ==
        "design [a] <[],a>: its PEs run the loops below the band (b) of all statements as one nest, which would run the "
        "sink of the flow dependence of S2 (C(a + b) -= 2.0f) on C(a + b) from S1 (C(a + 1) = -1.0f) first; sadsl "
        "cannot build this design");
}

TEST_CASE("a chain whose values would arrive out of order is refused") {
  // C flows from PE a to PE a + 1 written at b + 1 by S0 and at b by S1: the next PE reads C(2)
  // at b = 1 (S0) before C(1), but this PE writes C(1) (S1 at b = 1) first.
  kernel k("order");
  param N = k.param("N", 3);
  auto X = k.input<float>("X", {2});
  auto Y = k.input<float>("Y", {2, N + 2});
  auto C = k.inout<float>("C", {N + 3});
  loop a("a", 2), b("b", 1, N + 2);
  C(b + 1) += X(a);
  C(b) += Y(a, b);
  CHECK(build_and_verify(k, "[a] <[],a>") ==
        "design [a] <[],a>: the values of tensor \"C\" on its chain along a would reach the next PE in another order "
        "than it reads them; sadsl cannot build this design");
}

TEST_CASE("two chains along one loop whose values would arrive out of order together are refused") {
  // C steps (1, 0) from PE a to PE a + 1, D (1, -1): each alone keeps its order, but the next PE
  // would wait for a value of one while this PE fills the other's FIFO.
  kernel k("two_chains");
  param N = k.param("N", 3);
  auto X = k.input<float>("X", {N});
  auto C = k.inout<float>("C", {N});
  auto D = k.inout<float>("D", {2 * N});
  loop a("a", N), b("b", N);
  C(b) += X(a);
  D(a + b) += X(b);
  CHECK(build_and_verify(k, "[a] <[],a>") ==
        "design [a] <[],a>: the values of tensors \"C\" and \"D\" on their chains along a would reach the next PE in "
        "another order than it reads them; sadsl cannot build this design");
}

TEST_CASE("a statement that reads one value twice from the previous PE is refused") {
  // C(i) -= min(-C(i), X(j)): the update reads the accumulator again, and with j in space both
  // reads take the previous PE's value, which it sends once.
  kernel k("twice");
  param N = k.param("N", 3);
  auto X = k.input<float>("X", {N});
  auto C = k.inout<float>("C", {N});
  loop i("i", N), j("j", N);
  C(i) -= min(-C(i), X(j));
  CHECK(build_and_verify(k, "[j] <[i],j>") ==
        "design [j] <[i],j>: statement S0 reads one value of tensor \"C\" twice from the previous PE along j (C(i) and "
        "C(i)) in one instance; sadsl passes each value once along a chain");
}

TEST_CASE("a statement that reads a tensor twice takes each read's value from its own source") {
  // C(c + 2, b) -= C(b2, a - 1): the accumulator's value stays in its PE, the other read's value
  // comes from elsewhere; once both reads' sources classed an instance twice.
  kernel k("two_reads");
  param N = k.param("N", 2);
  auto C = k.inout<float>("C", {2 * N + 6, 2 * N + 6});
  loop a("a", 1, N + 2), b2("b2", 3), b("b", 1, N + 1), c("c", N + 2);
  C(c + 2, b) -= C(b2, a - 1);
  for (const auto& d : designs(k)) {
    INFO(d.name());
    CHECK(build_and_verify(k, d.name()) == "");
  }
}

TEST_CASE("an element several PEs overwrite keeps the last value") {
  // C(0) = X(i) with i in space: every PE writes C(0), one after another; only the last PE's
  // value is final. (An output dependence whose distance along a space loop is not constant, which
  // the I/O groups once asserted against, is in the sweep below: seed 3279.)
  kernel k("overwrite");
  param N = k.param("N", 4);
  auto X = k.input<float>("X", {N});
  auto Y = k.input<float>("Y", {N, N});
  auto C = k.inout<float>("C", {1});
  auto D = k.output<float>("D", {N});
  loop i("i", N), j("j", N);
  C(0) = X(i);
  D(i) += Y(i, j);
  for (const auto& d : designs(k)) {
    INFO(d.name());
    CHECK(build_and_verify(k, d.name()) == "");
  }
}

TEST_CASE("random kernels through the compiler: every design is built right or refused with a reason") {
  // Seeds 0..199, and the seeds of 0..3999 whose designs failed before these checks.
  std::vector<uint64_t> seeds;
  for (uint64_t s = 0; s < 200; ++s) seeds.push_back(s);
  for (uint64_t s : {371, 412, 413, 484, 559, 597, 623, 628, 685, 707, 721, 730, 826, 853, 859, 903, 922, 1137, 1204,
                     1273, 1287, 1403, 1406, 1450, 1583, 1588, 1674, 1675, 1696, 1804, 1807, 1906, 1997, 2152, 2328, 2422,
                     2471, 2502, 2527, 2551, 2627, 2670, 2736, 2771, 2847, 2938, 2974, 3279, 3458, 3683})
    seeds.push_back(s);
  int built = 0, refused = 0;
  for (uint64_t seed : seeds) {
    INFO("seed " << seed);
    std::optional<kernel> k;
    std::vector<design> ds;
    try {
      k = sadsl::testing::random_kernel_builder(sadsl::testing::seeded_choices(seed)).make();
      ds = designs(*k);
    } catch (const sadsl::internal_error& e) {
      FAIL(e.what());
    } catch (const sadsl::error&) {
      continue;
    }
    for (const auto& d : ds) {
      INFO(d.name());
      std::string problem = build_and_verify(*k, d.name());
      if (problem.empty()) {
        ++built;
        continue;
      }
      ++refused;
      CHECK_FALSE(problem.starts_with("internal error"));
      CHECK_FALSE(problem.starts_with("design: "));
      // Not a wrong value or a deadlock: those are what verify_architecture reports.
      CHECK(problem.find(" instead of ") == std::string::npos);
      CHECK(problem.find("deadlock") == std::string::npos);
    }
  }
  INFO("built " << built << ", refused " << refused);
  CHECK(built >= 150);
  CHECK(refused >= 20);
}
