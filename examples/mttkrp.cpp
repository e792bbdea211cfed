// MTTKRP (the matricized tensor times Khatri-Rao product of CP decomposition),
// D(i,j) = sum over k, l of A(i,k,l) B(k,j) C(j,l), 64^4 fp32, end to end with sadsl's own
// models (example_flow.hpp): writes generated/mttkrp/. Two reductions (k and l), three inputs
// each indexed by two of the four loops: every dataflow forwards two of them between PEs.
#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel mttkrp("mttkrp");
    param I = mttkrp.param("I", 64), J = mttkrp.param("J", 64), K = mttkrp.param("K", 64), L = mttkrp.param("L", 64);
    auto A = mttkrp.input<float>("A", {I, K, L});
    auto B = mttkrp.input<float>("B", {K, J});
    auto C = mttkrp.input<float>("C", {J, L});
    auto D = mttkrp.output<float>("D", {I, J});
    loop i("i", I), j("j", J), k("k", K), l("l", L);
    D(i, j) += A(i, k, l) * B(k, j) * C(j, l);  // k and l only on the right: reductions
    return mttkrp;
  });
}
