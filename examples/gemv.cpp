// Matrix-vector multiplication y = A x, 1024 x 1024 fp32, end to end with sadsl's own models
// (example_flow.hpp): writes generated/gemv/. Memory-bound: A is read once, so the tuned design
// is the one that streams it with the fewest resources at the least latency.
#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel gemv("gemv");
    param I = gemv.param("I", 1024), J = gemv.param("J", 1024);
    auto A = gemv.input<float>("A", {I, J});
    auto x = gemv.input<float>("x", {J});
    auto y = gemv.output<float>("y", {I});
    loop i(I), j(J);
    y(i) += A(i, j) * x(j);  // j only on the right: a reduction
    return gemv;
  });
}
