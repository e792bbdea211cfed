// Points evaluated per second on one core for an imported Odyssey model (default kernel3_2):
// the compiled code (ahead of time when linked in, else just in time) against the interpreter.
// Usage: bench_model_eval [descriptor.json] [seconds per row]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/odyssey.hpp"

using namespace sadsl::model;

namespace {

// Odyssey's space at 1024^3: t1 in [1, 1024], t2 | t1, SIMD a power of two dividing k_t1, <= 8.
std::vector<double> sample_points(const design_model& model, std::size_t count) {
  std::mt19937_64 random(42);
  std::vector<double> points(count * model.params.size());
  auto pick = [&](int lo, int hi) { return static_cast<double>(std::uniform_int_distribution<int>(lo, hi)(random)); };
  for (std::size_t n = 0; n < count; ++n) {
    double* p = &points[n * model.params.size()];
    for (std::size_t i = 0; i < model.params.size(); ++i) {
      const parameter& param = model.params[i];
      if (param.role == parameter_role::problem_size) p[i] = 1024;
      if (param.role == parameter_role::tile) p[i] = pick(1, 1024);
    }
    for (std::size_t i = 0; i < model.params.size(); ++i) {
      const parameter& param = model.params[i];
      if (param.role != parameter_role::latency_tile && param.role != parameter_role::simd) continue;
      double parent = 1;
      for (std::size_t j = 0; j < model.params.size(); ++j)
        if (model.params[j].split_by == i) parent = p[j];
      double value = pick(1, static_cast<int>(param.role == parameter_role::simd ? std::min(parent, 8.0) : parent));
      while (static_cast<long>(parent) % static_cast<long>(value) != 0) value -= 1;  // a divisor
      p[i] = value;
    }
  }
  return points;
}

double points_per_second(const evaluator& ev, std::vector<double> points, double seconds) {
  std::size_t count = points.size() / ev.parameter_count();
  std::vector<metrics> out(count);
  device_limits u250 = builtin_device_limits("u250");
  std::size_t evaluated = 0;
  double checksum = 0;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    ev.evaluate_batch(count, points, out, u250);
    evaluated += count;
    checksum += out[evaluated % count].latency;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (checksum < 0) std::printf("impossible\n");  // keeps the work observable
  return static_cast<double>(evaluated) / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path descriptor = argc > 1 ? argv[1] : SADSL_BENCH_DEFAULT_DESCRIPTOR;
  double seconds = argc > 2 ? std::stod(argv[2]) : 2.0;
  design_model model = import_odyssey_descriptor(descriptor);
  std::vector<double> points = sample_points(model, 1 << 16);

  evaluator compiled(model);
  evaluator_options interpreted_only;
  interpreted_only.use_ahead_of_time = interpreted_only.use_just_in_time = false;
  evaluator interpreted(model, interpreted_only);

  double fast = points_per_second(compiled, points, seconds);
  double slow = points_per_second(interpreted, points, seconds);
  std::printf("model %s: all metrics (latency, prologue/main/epilogue, DSP, BRAM18K, URAM, LUT, off-chip bytes,\n"
              "legality, feasibility) per point, batch of %zu points, 1 thread\n\n",
              model.name.c_str(), points.size() / model.params.size());
  std::printf("| evaluator | backend | points/s/core | vs interpreter |\n|---|---|---:|---:|\n");
  std::printf("| compiled | %s | %.3g | %.0fx |\n", backend_name(compiled.active_backend()), fast, fast / slow);
  std::printf("| interpreted | interpreter | %.3g | 1x |\n", slow);
  if (!compiled.fallback_reason().empty()) std::printf("\nnote: %s\n", compiled.fallback_reason().c_str());
  return 0;
}
