// User errors found when the whole kernel is known (program building, interpretation).
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {
std::string at(int line) { return "program_errors_test.cpp:" + std::to_string(line) + ": "; }

}  // namespace

TEST_CASE("reading an output element no statement wrote") {
  kernel k("k");
  param N = k.param("N", 8);
  auto A = k.output<float>("A", {N});
  loop i(N);
  A(i) = A(i) + 1.0f; int line = __LINE__;
  CHECK(message_of([&] { build_program(k); }) ==
        at(line) + "statement A(i) = A(i) + 1.0f reads output tensor \"A\" at A(i) before any statement writes that "
                   "element; declare it inout to read its input");
}

TEST_CASE("reading a local element no statement wrote") {
  kernel k("k");
  param N = k.param("N", 8);
  auto T = k.local<float>("T", {N});
  auto B = k.output<float>("B", {N});
  loop i(N), i2(N);
  T(i) = 1.0f;
  B(i2) = T(N - 1 - i2) + T(i2);  // a later nest: every element was written
  CHECK_NOTHROW(build_program(k));
  int line = 0;
  kernel k2("k2");
  param M = k2.param("M", 8);
  auto U = k2.local<float>("U", {M});
  auto V = k2.output<float>("V", {M});
  loop j(M);
  if_(j < 2, [&] { U(j) = 1.0f; });
  V(j) = U(j); line = __LINE__;
  CHECK(message_of([&] { build_program(k2); }) ==
        at(line) + "statement V(j) = U(j) reads local tensor \"U\" at U(j) before any statement writes that element");
  (void)line;
}

TEST_CASE("kernel without statements") {
  kernel k("empty");
  CHECK(message_of([&] { build_program(k); }) == "kernel \"empty\" has no statements");
}

TEST_CASE("unknown names") {
  kernel k = catalog::mm();
  program p = build_program(k);
  CHECK(message_of([&] { p.statement("S9"); }) == "kernel \"mm\" has no statement \"S9\"");
  CHECK(message_of([&] { k.get_param("Q"); }) == "kernel \"mm\" has no param \"Q\"");
}

TEST_CASE("buffer misuse") {
  kernel k = catalog::mm();
  for (auto p : k.params()) p.set(4);
  buffers data(k);
  CHECK(message_of([&] { data.get<float>("X"); }) == "kernel \"mm\" has no tensor \"X\"");
  CHECK(message_of([&] { data.extents("X"); }) == "kernel \"mm\" has no tensor \"X\"");
  CHECK(message_of([&] { data.get<double>("A"); }) == "tensor \"A\" holds float, not double");
  CHECK(message_of([&] { data.set<float>("A", std::vector<float>(3)); }) == "tensor \"A\" needs 16 elements, got 3");
  k.get_param("I").set(5);
  CHECK(message_of([&] { run(build_program(k), data); }) ==
        "buffers of kernel \"mm\" were sized for other param values than the current ones (tensor \"A\")");
}

TEST_CASE("integer division by zero") {
  kernel k("k");
  param N = k.param("N", 4);
  auto A = k.input<int32_t>("A", {N});
  auto B = k.output<int32_t>("B", {N});
  loop i(N);
  B(i) = 10 / A(i);
  buffers data(k);
  CHECK(message_of([&] { run(build_program(k), data); }) == "integer division by zero in statement S0");
}

TEST_CASE("a schedule of another kernel") {
  kernel a = catalog::fir();
  kernel b = catalog::lu();
  for (auto p : b.params()) p.set(3);
  program pa = build_program(a), pb = build_program(b);
  buffers data(b);
  // The FIR schedule lives in another isl context; build the same tree in b's context instead.
  isl::schedule s = isl::schedule(isl::ctx(b.ctx()), "{ domain: \"{ S7[i] : 0 <= i < 2 }\" }");
  CHECK(message_of([&] { run(pb, s, data); }) ==
        "schedule names statement \"S7\", which kernel \"lu\" does not have");
}

TEST_CASE("buffers too large for 64 bits or for the machine") {
  kernel k("big");
  param N = k.param("N", 4);
  auto A = k.input<float>("A", {N, N, N, N});
  auto D = k.output<double>("D", {N});
  loop i("i", N);
  D(i) = cast<double>(A(i, i, i, i));
  N.set(int64_t{1} << 20);  // 2^80 elements of A
  CHECK(message_of([&] { buffers b(k); }) ==
        "tensor \"A\" of kernel \"big\" is too large: extents [N, N, N, N] = [1048576, 1048576, 1048576, 1048576] at "
        "the current param values make more than 2^63 elements");
  kernel k2("long");
  param M = k2.param("M", 4);
  auto E = k2.output<double>("E", {M});
  loop j("j", M);
  E(j) = 1.0;
  M.set(int64_t{1} << 61);  // 2^61 elements of 8 bytes
  CHECK(message_of([&] { buffers b(k2); }) ==
        "tensor \"E\" of kernel \"long\" is too large: extents [M] = [2305843009213693952] at the current param "
        "values make 2305843009213693952 elements of 8 bytes, more than 2^63 bytes");
  N.set(int64_t{1} << 11);  // A: 2^44 elements, 2^46 bytes (64 TiB); D: 2^11 elements, 2^14 bytes
  std::string message = message_of([&] { buffers b(k); });
  CHECK_THAT(message, Catch::StartsWith("buffers of kernel \"big\" need 70368744194048 bytes at the current param "
                                        "values, more than this machine's memory ("));
  CHECK_THAT(message, Catch::EndsWith(" bytes); the largest is tensor \"A\" of kernel \"big\": extents [N, N, N, N] "
                                      "= [2048, 2048, 2048, 2048], 17592186044416 elements (70368744177664 bytes)"));
}

// An allocation that fails although the machine has the memory (here: an address-space limit just
// above what the process uses). Not under AddressSanitizer, whose allocator dies instead of
// throwing std::bad_alloc.
#if !defined(__SANITIZE_ADDRESS__)
TEST_CASE("a failed allocation names the tensor and its size") {
  kernel k("alloc");
  param N = k.param("N", 4);
  auto A = k.output<float>("A", {N});
  loop i("i", N);
  A(i) = 1.0f;
  N.set(int64_t{1} << 28);  // 1 GiB
  long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  REQUIRE(pages > 0);
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
  rlimit tight = old;
  tight.rlim_cur = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{1} << 27);
  REQUIRE(setrlimit(RLIMIT_AS, &tight) == 0);
  std::string message = message_of([&] { buffers b(k); });
  setrlimit(RLIMIT_AS, &old);
  CHECK(message == "could not allocate tensor \"A\" of kernel \"alloc\": extents [N] = [268435456], 268435456 "
                   "elements (1073741824 bytes)");
}
#endif
