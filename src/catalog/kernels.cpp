#include "sadsl/catalog/kernels.hpp"

namespace sadsl::catalog {

kernel mm() {
  kernel k("mm");
  param I = k.param("I", 1024), J = k.param("J", 1024), K = k.param("K", 1024);
  auto A = k.input<float>("A", {I, K});
  auto B = k.input<float>("B", {K, J});
  auto C = k.output<float>("C", {I, J});
  loop i("i", I), j("j", J), kk("k", K);
  C(i, j) += A(i, kk) * B(kk, j);
  return k;
}

kernel cnn() {
  kernel k("cnn");
  param O = k.param("O", 16), R = k.param("R", 16), C = k.param("C", 16), I = k.param("I", 16),
        K = k.param("K", 3);
  auto cin = k.input<float>("cin", {R + K - 1, C + K - 1, I});
  auto w = k.input<float>("w", {O, K, K, I});
  auto cout = k.output<float>("cout", {R, C, O});
  loop o("o", O), r("r", R), c("c", C), i("i", I), p("p", K), q("q", K);
  cout(r, c, o) += cin(r + p, c + q, i) * w(o, p, q, i);
  return k;
}

kernel mttkrp() {
  kernel k("mttkrp");
  param I = k.param("I", 64), J = k.param("J", 64), K = k.param("K", 64), L = k.param("L", 64);
  auto A = k.input<float>("A", {I, K, L});
  auto B = k.input<float>("B", {K, J});
  auto C = k.input<float>("C", {J, L});
  auto D = k.output<float>("D", {I, J});
  loop i("i", I), j("j", J), kk("k", K), l("l", L);
  D(i, j) += A(i, kk, l) * B(kk, j) * C(j, l);
  return k;
}

kernel ttmc() {
  kernel k("ttmc");
  param I = k.param("I", 32), J = k.param("J", 32), K = k.param("K", 32), L = k.param("L", 32),
        M = k.param("M", 32);
  auto A = k.input<float>("A", {I, L, M});
  auto B = k.input<float>("B", {L, J});
  auto C = k.input<float>("C", {K, M});
  auto D = k.output<float>("D", {I, J, K});
  loop i("i", I), j("j", J), kk("k", K), l("l", L), m("m", M);
  D(i, j, kk) += A(i, l, m) * B(l, j) * C(kk, m);
  return k;
}

kernel fir() {
  kernel k("fir");
  param N = k.param("N", 1024), T = k.param("T", 16);
  auto x = k.input<float>("x", {N + T - 1});
  auto h = k.input<float>("h", {T});
  auto y = k.output<float>("y", {N});
  loop i("i", N), t("t", T);
  y(i) += x(i + t) * h(t);
  return k;
}

kernel gemv() {
  kernel k("gemv");
  param I = k.param("I", 1024), J = k.param("J", 1024);
  auto A = k.input<float>("A", {I, J});
  auto x = k.input<float>("x", {J});
  auto y = k.output<float>("y", {I});
  loop i("i", I), j("j", J);
  y(i) += A(i, j) * x(j);
  return k;
}

kernel lu() {
  kernel k("lu");
  param N = k.param("N", 64);
  auto A = k.inout<double>("A", {N, N});
  loop i("i", N), j("j", 0, i), kk("k", 0, j);
  A(i, j) -= A(i, kk) * A(kk, j);
  A(i, j) = A(i, j) / A(j, j);
  loop j2("j2", i, N), k2("k2", 0, i);
  A(i, j2) -= A(i, k2) * A(k2, j2);
  return k;
}

kernel lu_uniform() {
  kernel k("lu_uniform");
  param N = k.param("N", 32);
  auto A = k.input<float>("A", {N, N});
  auto L = k.output<float>("L", {N, N});
  auto U = k.output<float>("U", {N, N});
  auto prev_V = k.local<float>("prev_V", {N, N});
  auto V = k.local<float>("V", {N, N});
  auto U_tmp = k.local<float>("U_tmp", {N, N});
  auto L_tmp = k.local<float>("L_tmp", {N, N});
  loop kk("k", N), j("j", kk, N), i("i", kk, N);
  under(j, [&] {
    under(i, [&] {
      if_(kk == 0, [&] { prev_V(i, j) = A(i, j); }).else_([&] { prev_V(i, j) = V(i, j); });
      if_(j == kk, [&] {
        U_tmp(i, j) = prev_V(i, j);
        U(j, i) = U_tmp(i, j);
      }).else_([&] {
        U_tmp(i, j) = U_tmp(i, j - 1);
        if_(i == kk, [&] {
          L_tmp(i, j) = prev_V(i, j) / U_tmp(i, j);
          L(i, j) = L_tmp(i, j);
        }).else_([&] { L_tmp(i, j) = L_tmp(i - 1, j); });
        V(i, j) = prev_V(i, j) - L_tmp(i, j) * U_tmp(i, j);
      });
    });
  });
  return k;
}

kernel trmm() {
  kernel k("trmm");
  param M = k.param("M", 1024), N = k.param("N", 1024);
  auto A = k.input<float>("A", {M, M});
  auto B = k.input<float>("B", {M, N});
  auto C = k.output<float>("C", {M, N});
  loop i("i", M), j("j", N), kk("k", i, M);
  C(i, j) += A(i, kk) * B(kk, j);
  return k;
}

kernel causal_conv() {
  kernel k("causal_conv");
  param N = k.param("N", 1024), K = k.param("K", 16);
  auto x = k.input<float>("x", {N});
  auto h = k.input<float>("h", {K});
  auto y = k.output<float>("y", {N});
  loop i("i", N), t("k", K);
  if_(t <= i, [&] { y(i) += x(i - t) * h(t); });
  return k;
}

kernel trmv_t() {
  kernel k("trmv_t");
  param N = k.param("N", 1024);
  auto L = k.input<float>("L", {N, N});
  auto x = k.input<float>("x", {N});
  auto y = k.output<float>("y", {N});
  loop j("j", N), i("i", j, N);
  y(j) += L(i, j) * x(i);
  return k;
}

}  // namespace sadsl::catalog
