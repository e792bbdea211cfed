#pragma once
// Points evaluated per second on one core, shared by bench_model_eval (an imported model) and
// bench_modeling (sadsl's own models): sample points of a model's space at 1024^3 and the best
// rate of five rounds, in the thread's CPU time.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "sadsl/model/design_model.hpp"

namespace sadsl::bench {

using namespace sadsl::model;

// The space at 1024^3 (Odyssey's): t1 in [1, 1024], t2 | t1, SIMD a power of two dividing k_t1, <= 8.
inline std::vector<double> sample_points(const design_model& model, std::size_t count) {
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

// The processor and the vector path the compiled models take here, for the report: rates and
// compile times differ several-fold between machines (an MM model's vector divisions alone take
// 15 cycles of a port on one Xeon, far fewer on a Zen 5).
inline std::string machine_description() {
  std::string cpu = "unknown processor";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  std::string path = "scalar";
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) path = "AVX-512";
  else if (__builtin_cpu_supports("avx2")) path = "AVX2";
#endif
  return cpu + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads, " + path + " path";
}

// CPU time of this thread: on a shared machine, time slices given to other processes do not
// count against the evaluator (points per second per core).
inline double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

inline double wall_seconds() {
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

}  // namespace sadsl::bench
