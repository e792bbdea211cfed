// One test per user error message of the DSL front end: the exact text, with the user's file:line.
#include <catch2/catch.hpp>

#include <sadsl/sadsl.hpp>

using namespace sadsl;

namespace {
std::string at(int line) { return "error_messages_test.cpp:" + std::to_string(line) + ": "; }
}  // namespace

// Runs `stmt` (one source line) and checks the sadsl::error it throws.
#define CHECK_USER_ERROR(stmt, expected)                           \
  do {                                                             \
    const int line_ = __LINE__;                                    \
    try {                                                          \
      stmt;                                                        \
      FAIL("no sadsl::error thrown");                              \
    } catch (const sadsl::error& e) {                              \
      CHECK(std::string(e.what()) == at(line_) + (expected));      \
    }                                                              \
  } while (0)

TEST_CASE("wrong number of indices") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N, N});
  auto B = k.output<float>("B", {N});
  loop i(N);
  CHECK_USER_ERROR(B(i) = A(i, i, i), "tensor \"A\" indexed with 3 indices but has 2 dimensions: A(i, i, i)");
}

TEST_CASE("non-affine index") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N});
  auto B = k.output<float>("B", {N});
  loop i(N), j(N);
  CHECK_USER_ERROR(B(i) = A(i * j), "index 0 of A(i * j) is not affine: i * j");
  CHECK_USER_ERROR(B(i) = A((i + 1) / 2), "index 0 of A((i + 1) / 2) is not affine: (i + 1) / 2");
}

TEST_CASE("access that can go below zero") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N});
  auto B = k.output<float>("B", {N});
  loop i(N);
  CHECK_USER_ERROR(B(i) = A(i - 1), "access A(i - 1) can leave tensor \"A\": index 0 (i - 1) can be negative");
}

TEST_CASE("access that can reach the extent") {
  kernel k("k");
  param N = k.param("N", 8), M = k.param("M", 8);
  auto A = k.input<float>("A", {N, M});
  auto B = k.output<float>("B", {N});
  loop i(N), j("j", 0, M + 1);
  CHECK_USER_ERROR(B(i) += A(i, j), "access A(i, j) can leave tensor \"A\": index 1 (j) can reach M, past its extent M");
}

TEST_CASE("in-bounds shifted accesses are accepted (proved with isl)") {
  kernel k("conv");
  param N = k.param("N", 8), T = k.param("T", 3);
  auto x = k.input<float>("x", {N + T - 1});
  auto y = k.output<float>("y", {N});
  loop i(N), t(T);
  CHECK_NOTHROW(y(i) += x(i + t));
}

TEST_CASE("loop used outside its kernel") {
  kernel k1("first"), k2("second");
  param N = k1.param("N", 8), M = k2.param("M", 8);
  auto A = k1.output<float>("A", {N});
  auto B = k2.output<float>("B", {M});
  loop i(N);
  CHECK_USER_ERROR(B(i) = 1.0f, "loop \"i\" (declared at " + at(__LINE__ - 1).substr(0, at(__LINE__ - 1).size() - 2) + ") belongs to kernel \"first\" but is used in kernel \"second\"");
}

TEST_CASE("loop adopted by its first kernel cannot move to another") {
  kernel k1("first"), k2("second");
  auto A = k1.output<float>("A", {8});
  auto B = k2.output<float>("B", {8});
  loop i(8);
  A(i) = 1.0f;
  CHECK_USER_ERROR(B(i) = 2.0f, "loop \"i\" (declared at " + at(__LINE__ - 2).substr(0, at(__LINE__ - 2).size() - 2) + ") belongs to kernel \"first\" but is used in kernel \"second\"");
}

TEST_CASE("loop bounds that mix kernels") {
  kernel k1("first"), k2("second");
  param N = k1.param("N", 8), M = k2.param("M", 8);
  CHECK_USER_ERROR(loop j("j", N, M), "bounds of loop \"j\" mix kernels \"first\" and \"second\"");
}

TEST_CASE("non-affine loop bound") {
  kernel k("k");
  param N = k.param("N", 8);
  loop i(N);
  CHECK_USER_ERROR(loop j("j", 0, i * i), "upper bound of loop \"j\" is not affine: i * i");
  CHECK_USER_ERROR(loop j("j", i * N, N), "lower bound of loop \"j\" is not affine: i * N");
}

TEST_CASE("empty iteration domain") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N});
  loop i("i", 5, 3);
  CHECK_USER_ERROR(A(i) = 1.0f, "statement A(i) = 1.0f has an empty iteration domain for every value of the params");
}

TEST_CASE("empty domain through a guard") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N});
  loop i(N);
  if_(i > N, [&] { CHECK_USER_ERROR(A(i) = 1.0f, "statement A(i) = 1.0f has an empty iteration domain for every value of the params"); });
}

TEST_CASE("writing an input tensor") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N});
  loop i(N);
  CHECK_USER_ERROR(A(i) += 1.0f, "writing input tensor \"A\" in A(i) += ...; declare it output or inout");
}

TEST_CASE("mixing element types without a cast") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N});
  auto D = k.input<double>("D", {N});
  auto C = k.output<double>("C", {N});
  loop i(N);
  CHECK_USER_ERROR(C(i) = A(i) * D(i), "mixing element types float and double without a cast in (A(i)) * (D(i)); use cast<T>(...)");
  CHECK_NOTHROW(C(i) = cast<double>(A(i)) * D(i));
}

TEST_CASE("assigning another element type without a cast") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<int8_t>("A", {N});
  auto C = k.output<int32_t>("C", {N});
  loop i(N);
  CHECK_USER_ERROR(C(i) += A(i) * A(i), "assigning an int8_t expression to int32_t tensor \"C\" without a cast: C(i) += A(i) * A(i); use cast<int32_t>(...)");
  CHECK_NOTHROW(C(i) += cast<int32_t>(A(i)) * cast<int32_t>(A(i)) + 1);
  auto U = k.input<uint8_t>("U", {N});
  auto F = k.input<float>("F", {N});
  CHECK_USER_ERROR(C(i) = U(i), "assigning a uint8_t expression to int32_t tensor \"C\" without a cast: C(i) = U(i); use cast<int32_t>(...)");
  CHECK_USER_ERROR(C(i) = F(i), "assigning a float expression to int32_t tensor \"C\" without a cast: C(i) = F(i); use cast<int32_t>(...)");
}

TEST_CASE("duplicate names") {
  kernel k("k");
  param N = k.param("N", 8);
  int decl = __LINE__ - 1;
  CHECK_USER_ERROR(k.param("N", 4), "duplicate name \"N\" in kernel \"k\": param \"N\" is already declared as param \"N\" (" + at(decl).substr(0, at(decl).size() - 2) + ")");
  CHECK_USER_ERROR(k.input<float>("N", {N}), "duplicate name \"N\" in kernel \"k\": tensor \"N\" is already declared as param \"N\" (" + at(decl).substr(0, at(decl).size() - 2) + ")");
}

TEST_CASE("duplicate loop name") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N, N});
  loop i(N), j("i", N);
  int decl = __LINE__ - 1;
  // Reported at the declaration of the second loop named "i".
  try {
    A(i, j) = 1.0f;
    FAIL("no sadsl::error thrown");
  } catch (const sadsl::error& e) {
    CHECK(std::string(e.what()) == at(decl) + "duplicate name \"i\" in kernel \"k\": loop \"i\" is already declared as loop \"i\" (" + at(decl).substr(0, at(decl).size() - 2) + ")");
  }
}

TEST_CASE("names must be identifiers") {
  kernel k("k");
  CHECK_USER_ERROR(k.param("2N", 8), "param \"2N\": names must be C identifiers");
  CHECK_USER_ERROR(k.input<float>("", {8}), "tensor of kernel \"k\" has an empty name");
}

TEST_CASE("problem sizes are positive") {
  kernel k("k");
  CHECK_USER_ERROR(k.param("N", 0), "param \"N\" has default value 0: problem sizes must be at least 1");
  param M = k.param("M", 4);
  CHECK_USER_ERROR(M.set(-3), "param \"M\" set to -3: problem sizes must be at least 1");
  CHECK_USER_ERROR(M.set(0), "param \"M\" set to 0: problem sizes must be at least 1");
  CHECK(M.value() == 4);
}

TEST_CASE("tensor extents are affine in params") {
  kernel k("k"), other("other");
  param N = k.param("N", 8), P = other.param("P", 3);
  loop i(N);
  CHECK_USER_ERROR(k.input<float>("A", {N * N}), "extent 0 of tensor \"A\" is not affine: N * N");
  CHECK_USER_ERROR(k.input<float>("B", {N, i}), "extent 1 of tensor \"B\" uses loop \"i\": extents may use only params");
  CHECK_USER_ERROR(k.input<float>("C", {P}), "extent 0 of tensor \"C\" uses param \"P\" of kernel \"other\"");
}

TEST_CASE("params of another kernel in an index") {
  kernel k("k"), other("other");
  param N = k.param("N", 8), P = other.param("P", 3);
  auto A = k.input<float>("A", {N});
  auto B = k.output<float>("B", {N});
  loop i(N);
  CHECK_USER_ERROR(B(i) = A(P - 1), "index 0 of A(P - 1) uses param \"P\" of kernel \"other\" in kernel \"k\"");
}

TEST_CASE("tensor of another kernel") {
  kernel k1("first"), k2("second");
  auto A = k1.input<float>("A", {8});
  auto B = k2.output<float>("B", {8});
  loop i(8);
  CHECK_USER_ERROR(B(i) = A(i), "tensor \"A\" belongs to another kernel, not to kernel \"second\"");
}

TEST_CASE("non-affine condition") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N});
  loop i(N);
  CHECK_USER_ERROR(if_(i * i == 4, [&] { A(i) = 1.0f; }), "condition \"i * i == 4\" is not affine: i * i - 4");
}

TEST_CASE("condition with a param of another kernel") {
  kernel k("k"), other("other");
  param N = k.param("N", 8), P = other.param("P", 3);
  auto A = k.output<float>("A", {N});
  loop i(N);
  if_(i < P, [&] { CHECK_USER_ERROR(A(i) = 1.0f, "condition \"i < P\" uses param \"P\" of kernel \"other\" in kernel \"k\""); });
}

TEST_CASE("implicit initialization under a loop bounded by a reduction loop") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.input<float>("A", {N, N});
  auto C = k.output<float>("C", {N});
  loop i(N), j("j", 0, i);
  CHECK_USER_ERROR(C(j) += A(i, j), "cannot initialize output tensor \"C\" for C(j) += A(i, j): the bounds of loop \"j\" depend on reduction loop \"i\"; declare \"C\" inout and initialize it explicitly");
}

TEST_CASE("under() nesting against declaration order") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N});
  loop i(N), j("j", i, N);
  under(j, [&] {
    CHECK_USER_ERROR(under(i, [&] { A(i) = 1.0f; }), "loop \"i\" is placed under loop \"j\", but loops nest in declaration order and \"i\" is declared first (the bounds of \"j\" use it)");
  });
}
