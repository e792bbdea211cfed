// A 16-tap FIR filter over 1024 outputs, fp32, end to end with sadsl's own models
// (example_flow.hpp): writes generated/fir/. x is read at i + t, so the same input reaches
// neighbouring PEs: its I/O group is carried by both loops.
#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel fir("fir");
    param N = fir.param("N", 1024), T = fir.param("T", 16);
    auto x = fir.input<float>("x", {N + T - 1});
    auto h = fir.input<float>("h", {T});
    auto y = fir.output<float>("y", {N});
    loop i(N), t(T);
    y(i) += x(i + t) * h(t);
    return fir;
  });
}
