// The 30 CNN descriptors import and evaluate to a legal, feasible design at a small tiling.
#include <catch2/catch.hpp>

#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

TEST_CASE("every CNN descriptor evaluates feasibly at a small tiling", "[odyssey]") {
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  for (const std::string& design : testing::cnn_designs()) {
    interpreter model(import_odyssey_descriptor(testing::descriptor("cnn", design)));
    const design_model& d = model.model();
    // 64 x 64 x 64 x 64 convolution with a 3 x 3 kernel; first-level tiles 8, latency tiles 2, no SIMD.
    std::vector<double> point(model.parameter_count());
    for (std::size_t i = 0; i < point.size(); ++i) {
      switch (d.params[i].role()) {
        case parameter_role::problem_size: point[i] = d.params[i].split_by ? 64 : 3; break;
        case parameter_role::tile: point[i] = 8; break;
        case parameter_role::latency_tile: point[i] = 2; break;
        case parameter_role::simd: point[i] = 1; break;
        case parameter_role::pack: break;
      }
    }
    metrics m = model.evaluate(point, u250);
    INFO(design);
    CHECK(m.legal == 1);
    CHECK(m.feasible == 1);
    CHECK(m.latency == m.latency_prologue + m.latency_main + m.latency_epilogue);
    CHECK(m.latency_main > 0);
    CHECK(m.dsp > 0);
    CHECK(m.bram18k > 0);
    CHECK(m.offchip_bytes > 0);
  }
}
