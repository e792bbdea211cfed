#pragma once
// Kernels the tests share that are not benchmark kernels of their own (header only).
#include "sadsl/dsl/kernel.hpp"

namespace sadsl::testing {

/// catalog::trmm() written with a guard instead of a loop bound: k in [0, M) under if_(k >= i).
/// Its implicit C = 0 belongs at k = i, the first instance of the guarded reduction.
inline kernel trmm_guarded() {
  kernel k("trmm_guarded");
  param M = k.param("M", 1024), N = k.param("N", 1024);
  auto A = k.input<float>("A", {M, M});
  auto B = k.input<float>("B", {M, N});
  auto C = k.output<float>("C", {M, N});
  loop i("i", M), j("j", N), kk("k", M);
  if_(kk >= i, [&] { C(i, j) += A(i, kk) * B(kk, j); });
  return k;
}

/// A guarded integer sum whose first-level factors leave partial tiles on a non-rectangular
/// domain: y(i) = sum of h(k) for k <= i, k < T. With h(k) = 1 << k every executed instance
/// shows in the result.
inline kernel guarded_sum() {
  kernel f("guarded_sum");
  param N = f.param("N", 8), T = f.param("T", 5);
  auto h = f.input<int32_t>("h", {T + 8});
  auto y = f.output<int32_t>("y", {N});
  loop i("i", N), k("k", T);
  if_(k <= i, [&] { y(i) += h(k); });
  return f;
}

/// Max-plus ("tropical") matrix product, C = max(C, A + B) over k: the all-pairs shortest-path
/// (longest-path) step. Not a += of a product, so its partial tiles cannot be padded with zeros:
/// every design is guarded, and modeled where its first-level factors divide N.
inline kernel tropical_mm(int64_t n) {
  kernel k("tropical_mm");
  param N = k.param("N", n);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.inout<float>("C", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  C(i, j) = max(C(i, j), A(i, r) + B(r, j));
  return k;
}

/// MM accumulating into C as read (BLAS's beta = 1): C is inout, so no initialization writes it
/// and a PE keeps C only where it carries it from one k to the next.
inline kernel mm_inout(int64_t n) {
  kernel k("mm_inout");
  param N = k.param("N", n);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.inout<float>("C", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  C(i, j) += A(i, r) * B(r, j);
  return k;
}

/// MM whose accumulator is initialized by a statement of its own under k == 0 (no implicit
/// initialization): a guard on a band loop, so its designs are guarded.
inline kernel mm_explicit_init(int64_t n) {
  kernel k("mm_explicit_init");
  param N = k.param("N", n);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.output<float>("C", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  if_(r == 0, [&] { C(i, j) = A(i, r) * B(r, j); }).else_([&] { C(i, j) += A(i, r) * B(r, j); });
  return k;
}

/// mm_explicit_init, and a second output written at k's last iteration.
inline kernel mm_init_and_last(int64_t n) {
  kernel k("mm_init_and_last");
  param N = k.param("N", n);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.output<float>("C", {N, N});
  auto E = k.output<float>("E", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  if_(r == 0, [&] { C(i, j) = A(i, r) * B(r, j); }).else_([&] { C(i, j) += A(i, r) * B(r, j); });
  if_(r == N - 1, [&] { E(i, j) = A(i, r) + B(r, j); });
  return k;
}

/// MM whose product reads A(i, k) twice: `C(i, j) += A(i, k) * A(i, k) * B(k, j)` (a += of a
/// product: its designs are zero-padded, A and B forwarded along chains, A in SIMD vectors where
/// k is the SIMD loop). Each element of A moves once per PE iteration: the second read takes the
/// first one's register.
inline kernel mm_fused_reads(int64_t n) {
  kernel k("mm_fused_reads");
  param N = k.param("N", n);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.output<float>("C", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  C(i, j) += A(i, r) * A(i, r) * B(r, j);
  return k;
}

/// MM with one size for i, j and k: loops that share a param pad it together (zero-padded where
/// their first-level factors pad it alike, guarded elsewhere).
inline kernel mm_square(int64_t n) {
  kernel k("mm_square");
  param N = k.param("N", n);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.output<float>("C", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  C(i, j) += A(i, r) * B(r, j);
  return k;
}

/// CNN with one size for o, r, c and i (and K for the kernel window below the band).
inline kernel cnn_square(int64_t n, int64_t window) {
  kernel k("cnn_square");
  param N = k.param("N", n), K = k.param("K", window);
  auto W = k.input<float>("W", {N, N, K, K});
  auto In = k.input<float>("In", {N, N + K - 1, N + K - 1});
  auto Out = k.output<float>("Out", {N, N, N});
  loop o("o", N), r("r", N), c("c", N), i("i", N), p("p", K), q("q", K);
  Out(o, r, c) += W(o, i, p, q) * In(i, r + p, c + q);
  return k;
}

/// MM with i from 1: a rectangular nest whose partial tiles cannot be padded with zeros (a loop
/// must run over [0, P)), so its designs are guarded.
inline kernel mm_from_one() {
  kernel k("mm_from_1");
  param N = k.param("N", 40);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.output<float>("C", {N, N});
  loop i("i", 1, N), j("j", N), r("k", N);
  C(i, j) += A(i, r) * B(r, j);
  return k;
}

/// x(2) read again at l + 1 only for l = 1 and N < 1, which no size allows: a reuse that is empty
/// under the context (random kernel seed 15525, whose empty dependence once failed designs()).
inline kernel empty_reuse() {
  kernel k("empty_reuse");
  param N = k.param("N", 1);
  auto x = k.input<int32_t>("x", {N + 3});
  auto y = k.inout<int32_t>("y", {N + 3});
  loop l("l", 1, 3);
  if_(l > N, [&] { y(l) += x(2); });
  return k;
}

}  // namespace sadsl::testing
