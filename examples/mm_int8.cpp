// Matrix multiplication with int8 inputs and int32 sums, 1024^3, end to end with sadsl's own
// models (example_flow.hpp): writes generated/mm_int8/. The same 18 designs as examples/mm.cpp;
// what changes is the cost of a PE's multiply-add (docs/modeling.md, the DSP table) and the
// packing: 64 int8 values per 512-bit DRAM word.
#include <cstdint>

#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel mm("mm_int8");
    param I = mm.param("I", 1024), J = mm.param("J", 1024), K = mm.param("K", 1024);
    auto A = mm.input<int8_t>("A", {I, K});
    auto B = mm.input<int8_t>("B", {K, J});
    auto C = mm.output<int32_t>("C", {I, J});  // the sums' type: int8 products summed 1024 times
    loop i(I), j(J), k(K);
    C(i, j) += cast<int32_t>(A(i, k)) * cast<int32_t>(B(k, j));
    return mm;
  });
}
