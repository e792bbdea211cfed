// TTMc (the chain of tensor-times-matrix products of Tucker decomposition),
// D(i,j,k) = sum over l, m of A(i,l,m) B(l,j) C(k,m), 32^5 fp32, end to end with sadsl's own
// models (example_flow.hpp): writes generated/ttmc/. Three output loops and two reductions:
// every dataflow keeps one output loop and both reductions in time.
#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel ttmc("ttmc");
    param I = ttmc.param("I", 32), J = ttmc.param("J", 32), K = ttmc.param("K", 32), L = ttmc.param("L", 32),
          M = ttmc.param("M", 32);
    auto A = ttmc.input<float>("A", {I, L, M});
    auto B = ttmc.input<float>("B", {L, J});
    auto C = ttmc.input<float>("C", {K, M});
    auto D = ttmc.output<float>("D", {I, J, K});
    loop i("i", I), j("j", J), k("k", K), l("l", L), m("m", M);
    D(i, j, k) += A(i, l, m) * B(l, j) * C(k, m);  // l and m only on the right: reductions
    return ttmc;
  });
}
