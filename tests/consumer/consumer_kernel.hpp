#pragma once
// The kernel both programs of the consumer project describe: the kernel program (which writes
// its models as C++ at build time) and the program that tunes with them.
#include <sadsl/sadsl.hpp>

inline sadsl::kernel consumer_mm() {
  using namespace sadsl;
  kernel mm("consumer_mm");
  param I = mm.param("I", 64), J = mm.param("J", 48), K = mm.param("K", 32);
  auto A = mm.input<float>("A", {I, K});
  auto B = mm.input<float>("B", {K, J});
  auto C = mm.output<float>("C", {I, J});
  loop i(I), j(J), k(K);
  C(i, j) += A(i, k) * B(k, j);
  return mm;
}
