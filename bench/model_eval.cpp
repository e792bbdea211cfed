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
      if (param.role() == parameter_role::problem_size) p[i] = 1024;
      if (param.role() == parameter_role::tile) p[i] = pick(1, 1024);
    }
    for (std::size_t i = 0; i < model.params.size(); ++i) {
      const parameter& param = model.params[i];
      if (param.role() != parameter_role::latency_tile && param.role() != parameter_role::simd) continue;
      double parent = 1;
      for (std::size_t j = 0; j < model.params.size(); ++j)
        if (model.params[j].split_by == i) parent = p[j];
      double value = pick(1, static_cast<int>(param.role() == parameter_role::simd ? std::min(parent, 8.0) : parent));
      while (static_cast<long>(parent) % static_cast<long>(value) != 0) value -= 1;  // a divisor
      p[i] = value;
    }
  }
  return points;
}

// CPU time of this thread: on a shared machine, time slices given to other processes do not
// count against the evaluator (points per second per core).
double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct rate {
  double per_cpu_second = 0;   ///< points per second of this thread's CPU time
  double per_wall_second = 0;  ///< points per elapsed second
};

// The best of five rounds: the fastest round is the least disturbed (caches, frequency).
template <class Evaluate>
rate best_rate(std::size_t count, double seconds, Evaluate evaluate) {
  rate best;
  for (int round = 0; round < 5; ++round) {
    std::size_t evaluated = 0;
    double cpu_start = thread_seconds(), wall_start = wall_seconds();
    double cpu = 0;
    while (cpu < seconds / 5) {
      evaluate();
      evaluated += count;
      cpu = thread_seconds() - cpu_start;
    }
    double wall = wall_seconds() - wall_start;
    best.per_cpu_second = std::max(best.per_cpu_second, static_cast<double>(evaluated) / cpu);
    best.per_wall_second = std::max(best.per_wall_second, static_cast<double>(evaluated) / wall);
  }
  return best;
}

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
