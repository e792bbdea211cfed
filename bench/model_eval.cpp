// Points evaluated per second on one core for an imported Odyssey model (default kernel3_2):
// the compiled code (ahead of time when linked in, else just in time) against the interpreter.
// Usage: bench_model_eval [descriptor.json] [seconds per row]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"
#include "evaluation_rate.hpp"

using namespace sadsl::model;

namespace {

using namespace sadsl::bench;

struct row {
  const char* what;
  std::string backend;
  rate speed;
};

}  // namespace

int main(int argc, char** argv) {
#ifdef SADSL_BENCH_DEFAULT_DESCRIPTOR  // ../shared/reference beside the source tree
  std::filesystem::path descriptor = argc > 1 ? argv[1] : SADSL_BENCH_DEFAULT_DESCRIPTOR;
#else
  if (argc < 2) {
    std::fprintf(stderr, "usage: model_eval <descriptor.json> [seconds]\n");
    return 2;
  }
  std::filesystem::path descriptor = argv[1];
#endif
  double seconds = argc > 2 ? std::stod(argv[2]) : 2.0;
  std::printf("machine: %s\n", machine_description().c_str());
  design_model model = import_odyssey_descriptor(descriptor);
  std::vector<double> points = sample_points(model, 1 << 16);

  std::size_t count = points.size() / model.params.size();
  std::vector<metrics> out(count);
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();

  evaluator compiled(model);
  evaluator_options jit_only;
  jit_only.use_ahead_of_time = false;
  evaluator just_in_time(model, jit_only);
  evaluator_options interpreted_only;
  interpreted_only.use_ahead_of_time = interpreted_only.use_just_in_time = false;
  evaluator interpreted(model, interpreted_only);

  std::vector<row> rows;
  auto batch_rate = [&](const evaluator& ev) {
    return best_rate(count, seconds, [&] { ev.evaluate_batch(count, points, out, u250); });
  };
  rows.push_back({"compiled, batch", backend_name(compiled.active_backend()), batch_rate(compiled)});
  if (const compiled_model* code = compiled.compiled()) {
    std::size_t width = model.params.size();
    rate single = best_rate(count, seconds, [&] {
      for (std::size_t n = 0; n < count; ++n) code->evaluate(&points[n * width], &out[n], &u250);
    });
    rows.push_back({"compiled, one point per call", backend_name(compiled.active_backend()), single});
  }
  rows.push_back({"compiled, batch", backend_name(just_in_time.active_backend()), batch_rate(just_in_time)});
  rows.push_back({"interpreted", "interpreter", batch_rate(interpreted)});

  double slow = rows.back().speed.per_cpu_second;
  std::printf("model %s: all metrics per point (latency and its three parts, DSP, BRAM18K, URAM, LUT,\n"
              "off-chip bytes, legality, feasibility); %zu points of Odyssey's space at 1024^3; 1 thread;\n"
              "best of 5 rounds\n\n",
              model.name.c_str(), count);
  std::printf("| evaluator | backend | points/s/core (CPU time) | points/s (wall clock) | vs interpreter |\n"
              "|---|---|---:|---:|---:|\n");
  for (const row& r : rows)
    std::printf("| %s | %s | %.3g | %.3g | %.0fx |\n", r.what, r.backend.c_str(), r.speed.per_cpu_second,
                r.speed.per_wall_second, r.speed.per_cpu_second / slow);
  for (const evaluator* ev : {&compiled, &just_in_time})
    if (!ev->fallback_reason().empty()) std::printf("\nnote: %s\n", ev->fallback_reason().c_str());
  return 0;
}
