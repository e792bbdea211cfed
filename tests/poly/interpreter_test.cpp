// The interpreter against hand-written C++ loops, on random data, for every catalogue kernel.
// Sizes are small and distinct per dimension so that a transposed index cannot go unnoticed.
#include <catch2/catch.hpp>

#include <cmath>

#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using sadsl::testing::run_checked;

namespace {

void set_sizes(kernel& k, std::initializer_list<std::pair<const char*, int64_t>> sizes) {
  for (auto [name, v] : sizes) k.get_param(name).set(v);
}

buffers run_random(const kernel& k, uint64_t seed) {
  buffers data(k);
  data.randomize_inputs(seed);
  run_checked(build_program(k), data);
  return data;
}

}  // namespace

TEST_CASE("interpreter: MM equals hand-written loops bit for bit") {
  kernel k = catalog::mm();
  const int I = 5, J = 7, K = 6;
  set_sizes(k, {{"I", I}, {"J", J}, {"K", K}});
  buffers data = run_random(k, 1);
  const auto &A = data.get<float>("A"), &B = data.get<float>("B");
  std::vector<float> C(I * J);
  for (int i = 0; i < I; ++i)
    for (int j = 0; j < J; ++j) {
      C[i * J + j] = 0;
      for (int kk = 0; kk < K; ++kk) C[i * J + j] += A[i * K + kk] * B[kk * J + j];
    }
  CHECK(data.get<float>("C") == C);
}

TEST_CASE("interpreter: CNN equals hand-written loops bit for bit") {
  kernel k = catalog::cnn();
  const int O = 3, R = 4, C = 5, I = 2, K = 3;
  set_sizes(k, {{"O", O}, {"R", R}, {"C", C}, {"I", I}, {"K", K}});
  buffers data = run_random(k, 2);
  const auto &cin = data.get<float>("cin"), &w = data.get<float>("w");
  const int CC = C + K - 1;
  std::vector<float> cout(R * C * O);
  for (int o = 0; o < O; ++o)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        float& out = cout[(r * C + c) * O + o];
        out = 0;
        for (int i = 0; i < I; ++i)
          for (int p = 0; p < K; ++p)
            for (int q = 0; q < K; ++q)
              out += cin[((r + p) * CC + (c + q)) * I + i] * w[((o * K + p) * K + q) * I + i];
      }
  CHECK(data.get<float>("cout") == cout);
}

TEST_CASE("interpreter: MTTKRP equals hand-written loops bit for bit") {
  kernel k = catalog::mttkrp();
  const int I = 3, J = 4, K = 5, L = 6;
  set_sizes(k, {{"I", I}, {"J", J}, {"K", K}, {"L", L}});
  buffers data = run_random(k, 3);
  const auto &A = data.get<float>("A"), &B = data.get<float>("B"), &C = data.get<float>("C");
  std::vector<float> D(I * J);
  for (int i = 0; i < I; ++i)
    for (int j = 0; j < J; ++j) {
      D[i * J + j] = 0;
      for (int kk = 0; kk < K; ++kk)
        for (int l = 0; l < L; ++l) D[i * J + j] += A[(i * K + kk) * L + l] * B[kk * J + j] * C[j * L + l];
    }
  CHECK(data.get<float>("D") == D);
}

TEST_CASE("interpreter: TTMc equals hand-written loops bit for bit") {
  kernel k = catalog::ttmc();
  const int I = 2, J = 3, K = 4, L = 5, M = 3;
  set_sizes(k, {{"I", I}, {"J", J}, {"K", K}, {"L", L}, {"M", M}});
  buffers data = run_random(k, 4);
  const auto &A = data.get<float>("A"), &B = data.get<float>("B"), &C = data.get<float>("C");
  std::vector<float> D(I * J * K);
  for (int i = 0; i < I; ++i)
    for (int j = 0; j < J; ++j)
      for (int kk = 0; kk < K; ++kk) {
        float& d = D[(i * J + j) * K + kk];
        d = 0;
        for (int l = 0; l < L; ++l)
          for (int m = 0; m < M; ++m) d += A[(i * L + l) * M + m] * B[l * J + j] * C[kk * M + m];
      }
  CHECK(data.get<float>("D") == D);
}

TEST_CASE("interpreter: FIR equals hand-written loops bit for bit") {
  kernel k = catalog::fir();
  const int N = 20, T = 5;
  set_sizes(k, {{"N", N}, {"T", T}});
  buffers data = run_random(k, 5);
  const auto &x = data.get<float>("x"), &h = data.get<float>("h");
  std::vector<float> y(N);
  for (int i = 0; i < N; ++i) {
    y[i] = 0;
    for (int t = 0; t < T; ++t) y[i] += x[i + t] * h[t];
  }
  CHECK(data.get<float>("y") == y);
}

TEST_CASE("interpreter: PolyBench LU equals hand-written loops bit for bit") {
  kernel k = catalog::lu();
  const int N = 7;
  set_sizes(k, {{"N", N}});
  buffers data(k);
  auto& A = data.get<double>("A");
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) A[r * N + c] = (r == c ? N : 0) + ((r * 7 + c * 3) % 5) * 0.25;
  std::vector<double> ref = A;
  run_checked(build_program(k), data);
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < i; ++j) {
      for (int kk = 0; kk < j; ++kk) ref[i * N + j] -= ref[i * N + kk] * ref[kk * N + j];
      ref[i * N + j] /= ref[j * N + j];
    }
    for (int j = i; j < N; ++j)
      for (int kk = 0; kk < i; ++kk) ref[i * N + j] -= ref[i * N + kk] * ref[kk * N + j];
  }
  CHECK(data.get<double>("A") == ref);
}

TEST_CASE("interpreter: uniformized LU equals hand-written loops and factorizes A^T") {
  kernel k = catalog::lu_uniform();
  const int N = 6;
  set_sizes(k, {{"N", N}});
  buffers data(k);
  auto& A = data.get<float>("A");
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) A[r * N + c] = (r == c ? 10.f : 0.f) + float((r * 7 + c * 3) % 5);
  run_checked(build_program(k), data);

  std::vector<float> prev_V(N * N), V(N * N), U_tmp(N * N), L_tmp(N * N), L(N * N), U(N * N);
  auto at = [&](int i, int j) { return i * N + j; };
  for (int kk = 0; kk < N; ++kk)
    for (int j = kk; j < N; ++j)
      for (int i = kk; i < N; ++i) {
        prev_V[at(i, j)] = kk == 0 ? A[at(i, j)] : V[at(i, j)];
        if (j == kk) {
          U_tmp[at(i, j)] = prev_V[at(i, j)];
          U[at(j, i)] = U_tmp[at(i, j)];
        } else {
          U_tmp[at(i, j)] = U_tmp[at(i, j - 1)];
          if (i == kk) {
            L_tmp[at(i, j)] = prev_V[at(i, j)] / U_tmp[at(i, j)];
            L[at(i, j)] = L_tmp[at(i, j)];
          } else {
            L_tmp[at(i, j)] = L_tmp[at(i - 1, j)];
          }
          V[at(i, j)] = prev_V[at(i, j)] - L_tmp[at(i, j)] * U_tmp[at(i, j)];
        }
      }
  CHECK(data.get<float>("L") == L);
  CHECK(data.get<float>("U") == U);
  // A^T = (unit lower L^T) * U: the kernel is an LU factorization of the transposed matrix.
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) {
      double s = U[at(r, c)];
      for (int m = 0; m < r; ++m) s += double(L[at(m, r)]) * U[at(m, c)];
      CHECK(s == Approx(A[at(c, r)]).epsilon(1e-5));
    }
}

TEST_CASE("interpreter: integer kernels follow C promotion and truncation") {
  kernel k("int8_mm");
  param N = k.param("N", 6);
  auto A = k.input<int8_t>("A", {N, N});
  auto B = k.input<uint8_t>("B", {N, N});
  auto C = k.output<int8_t>("C", {N, N});
  auto D = k.output<uint32_t>("D", {N});
  loop i(N), j(N), kk(N);
  C(i, j) += A(i, kk) * cast<int8_t>(B(kk, j)) * 9;  // wraps: int8 accumulator
  loop i2(N);
  D(i2) = cast<uint32_t>(A(i2, 0)) - 5u * cast<uint32_t>(B(0, i2));  // modulo 2^32
  buffers data(k);
  data.randomize_inputs(9);
  run_checked(build_program(k), data);
  const auto& a = data.get<int8_t>("A");
  const auto& b = data.get<uint8_t>("B");
  std::vector<int8_t> c(36);
  std::vector<uint32_t> d(6);
  for (int x = 0; x < 6; ++x)
    for (int y = 0; y < 6; ++y) {
      c[x * 6 + y] = 0;
      for (int z = 0; z < 6; ++z) c[x * 6 + y] += a[x * 6 + z] * int8_t(b[z * 6 + y]) * 9;
    }
  for (int x = 0; x < 6; ++x) d[x] = uint32_t(a[x * 6]) - 5u * uint32_t(b[x]);
  CHECK(data.get<int8_t>("C") == c);
  CHECK(data.get<uint32_t>("D") == d);
}

TEST_CASE("interpreter: runs a transformed schedule (loop interchange) to the same result") {
  kernel k = catalog::mm();
  set_sizes(k, {{"I", 4}, {"J", 5}, {"K", 3}});
  program p = build_program(k);
  buffers original(k), interchanged(k);
  original.randomize_inputs(11);
  interchanged.randomize_inputs(11);
  run_checked(p, original);
  // j outermost, then i; k stays innermost so every C(i, j) sums in the same order.
  isl::union_map order(isl::ctx(k.ctx()),
                       "[I, J, K] -> { S0[i, j] -> [j, i, 0, 0]; S1[i, j, kk] -> [j, i, 1, kk] }");
  isl::schedule s = isl::manage(isl_schedule_from_domain(p.domain().copy()));
  s = isl::manage(isl_schedule_insert_partial_schedule(
      s.release(), isl_multi_union_pw_aff_from_union_map(order.release())));
  run_checked(p, s, interchanged);
  CHECK(dump_schedule_code(p, s).substr(0, 33) == "for (int c0 = 0; c0 < J; c0 += 1)");
  CHECK(original == interchanged);
}
