// Min-plus ("tropical") matrix product C = min(C, A + B) over k, 1024 x 1024 fp32: the step of
// all-pairs shortest paths by repeated squaring (C starts as the distances known so far), end to
// end with sadsl's own models (example_flow.hpp): writes generated/minplus/.
//
// Not a += of products, so no design can pad its partial tiles with zeros: every design runs
// them guarded, and its model covers the tilings whose first-level factors divide 1024, where
// there are none (docs/modeling.md, "Guarded designs"); the tuner searches those. A design packs
// a network's DRAM words only where its buffer is registers (the banks of a block RAM buffer
// would cost BRAM), and has no SIMD factor.
#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel minplus("minplus");
    param N = minplus.param("N", 1024);
    auto A = minplus.input<float>("A", {N, N});
    auto B = minplus.input<float>("B", {N, N});
    auto C = minplus.inout<float>("C", {N, N});  // read and written: no initialization
    loop i("i", N), j("j", N), k("k", N);
    C(i, j) = min(C(i, j), A(i, k) + B(k, j));  // k only on the right: a min-reduction written out
    return minplus;
  });
}
