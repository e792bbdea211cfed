// A convolution layer of VGG16 (CONV2: 64 input and 64 output channels, 224 x 224 outputs, 3 x 3
// filters, stride 1), fp32, end to end with sadsl's own models (example_flow.hpp): writes
// generated/cnn/. Odyssey (paper 001, section 5.4, table 7) studies the same layer: its best
// designs use 7,680 to 8,320 DSPs at 84 to 94% DSP efficiency.
#include "example_flow.hpp"

int main(int argc, char** argv) {
  return sadsl_examples::run_flow(argc, argv, [] {
    using namespace sadsl;
    kernel cnn("cnn");
    param O = cnn.param("O", 64), R = cnn.param("R", 224), C = cnn.param("C", 224), I = cnn.param("I", 64),
          K = cnn.param("K", 3);
    auto cin = cnn.input<float>("cin", {R + K - 1, C + K - 1, I});  // the layer's input, padded by K - 1
    auto w = cnn.input<float>("w", {O, K, K, I});
    auto cout = cnn.output<float>("cout", {R, C, O});
    loop o("o", O), r("r", R), c("c", C), i("i", I), p("p", K), q("q", K);
    cout(r, c, o) += cin(r + p, c + q, i) * w(o, p, q, i);  // i, p and q only on the right: reductions
    return cnn;
  });
}
