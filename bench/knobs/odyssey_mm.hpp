#pragma once
// A space built from a real performance model: Odyssey's best MM design (kernel3_2: dataflow
// [i,j], tile order i, j, k) for 1024^3 FP32 on an Alveo U250 at 70% of its resources, evaluated
// by sadsl's import of the descriptor AutoSA wrote. Knobs: the first-level tiles i_t1 and j_t1 (16
// to 1024 by 16, non-divisors pad), the latency-hiding tiles i_t2 and j_t2 (powers of two up to 16,
// so they divide), and k_t1 (powers of two 8..128); SIMD k_t2 = 8 lanes. A configuration fails when
// its DSP or BRAM18K use exceeds the device (synthesis reports the use: measured constraints) or
// when latency hiding is too shallow for the pipeline, i_t2 * j_t2 < 8 * k_t2 (Odyssey's rule).
#include <filesystem>
#include <memory>

#include "cgra.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"

namespace sadsl::knobs::bench {

/// The descriptor, in ../shared/reference beside the source tree (a user's checkout has none).
inline std::string odyssey_mm_descriptor() {
  return std::string(SADSL_SHARED_DIR) + "/reference/odyssey/descriptors/gemm/kernel3_2.json";
}

inline test_space odyssey_mm_space() {
  auto ev = std::make_shared<const model::evaluator>(model::import_odyssey_descriptor(odyssey_mm_descriptor()));
  const model::device_limits limits = tune::builtin_device("u250").limits();
  test_space s{"odyssey-mm/u250", {}, {}};
  s.tuning.add_knob(knob::range("i_t1", 16, 1024, 16));
  s.tuning.add_knob(knob::range("j_t1", 16, 1024, 16));
  s.tuning.add_knob(knob::power_of_two("i_t2", 1, 16));
  s.tuning.add_knob(knob::power_of_two("j_t2", 1, 16));
  s.tuning.add_knob(knob::power_of_two("k_t1", 8, 128));
  const feature dsp = s.tuning.add_sensor("dsp");
  const feature bram = s.tuning.add_sensor("bram18k");
  const feature hiding = s.tuning.add_sensor("latency_hiding");  // i_t2 * j_t2 / (8 * k_t2)
  const feature latency = s.tuning.add_sensor("latency");
  s.tuning.maximize(2.0 * 1024 * 1024 * 1024 / latency);  // FLOP per cycle
  s.tuning.require(dsp <= limits.dsp);
  s.tuning.require(bram <= limits.bram18k);
  s.tuning.require(hiding >= 1.0);
  s.evaluate = [ev, limits](const configuration& c) {
    const auto& m = ev->model();
    std::vector<double> point(ev->parameter_count(), 0.0);
    auto set = [&](const char* name, double v) { point[m.parameter_index(name)] = v; };
    set("i", 1024), set("j", 1024), set("k", 1024);
    set("i_t1", c["i_t1"]), set("j_t1", c["j_t1"]), set("k_t1", c["k_t1"]);
    set("i_t2", c["i_t2"]), set("j_t2", c["j_t2"]), set("k_t2", 8);
    model::metrics r = ev->evaluate(point, limits);
    std::map<std::string, double> measured{{"dsp", r.dsp}, {"bram18k", r.bram18k},
                                           {"latency_hiding", double(c["i_t2"]) * c["j_t2"] / 64.0}};
    if (measured["latency_hiding"] < 1.0) return outcome::fail("latency hiding", measured);
    if (r.dsp > limits.dsp) return outcome::fail("DSP", measured, {"latency hiding"});
    if (r.bram18k > limits.bram18k) return outcome::fail("BRAM18K", measured, {"latency hiding", "DSP"});
    if (!r.feasible) return outcome::fail("illegal", measured, {"latency hiding", "DSP", "BRAM18K"});
    measured["latency"] = r.latency;
    return outcome::pass(measured);
  };
  return s;
}

}  // namespace sadsl::knobs::bench
