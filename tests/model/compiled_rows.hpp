#pragma once
// Compiled models against the interpreter, bit for bit: the rows of points on which they differ,
// one point per call or in a batch, through the path this machine runs and the scalar one.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "test_support.hpp"

namespace sadsl::model::testing {

// The rows (points of `compiled`'s parameters, one after another) whose metrics, one point per
// call or in a batch, differ in any bit from `expected`.
inline std::vector<std::size_t> rows_differing(const compiled_model& compiled, const std::vector<double>& points,
                                        const std::vector<metrics>& expected, const device_limits& limits) {
  std::size_t width = points.size() / expected.size(), count = expected.size();
  std::vector<double> batch_points = points;
  std::vector<metrics> batch(count);
  compiled.evaluate_batch(count, batch_points.data(), batch.data(), &limits);
  std::vector<std::size_t> differ;
  for (std::size_t r = 0; r < count; ++r) {
    metrics one;
    std::vector<double> single(points.begin() + static_cast<std::ptrdiff_t>(width * r),
                               points.begin() + static_cast<std::ptrdiff_t>(width * (r + 1)));
    compiled.evaluate(single.data(), &one, &limits);
    if (std::memcmp(&one, &expected[r], sizeof one) != 0 || std::memcmp(&batch[r], &expected[r], sizeof one) != 0)
      differ.push_back(r);
  }
  return differ;
}

// Whether this machine runs AVX-512 (the generated AVX-512 path's requirement, avx512f).
inline bool host_runs_avx512() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

// The rows (points of m's parameters, one after another) whose metrics from the JIT-compiled model,
// one point per call or in a batch, differ in any bit from `expected`: compiled as the JIT builds
// it for this machine (the AVX-512 or AVX2 path where the machine has it, one point in every
// lane), with the scalar path only (SADSL_SCALAR_ONLY, as a machine without AVX2 runs it) and,
// on a machine with AVX-512, with the AVX2 path only too (as a machine without AVX-512 runs it).
inline std::vector<std::size_t> compiled_rows_differing(const design_model& m, const char* cache_name, const std::vector<double>& points,
                                                 const std::vector<metrics>& expected, const device_limits& limits) {
  temporary_cache cache(cache_name);
  jit_options options;
  options.cache_dir = cache.dir;
  std::vector<std::size_t> differ = rows_differing(jit_compile(m, options), points, expected, limits);
  std::vector<std::string> others = {"-DSADSL_SCALAR_ONLY"};
  if (host_runs_avx512()) others.push_back("-DSADSL_AVX2_ONLY");
  for (const std::string& path : others) {
    jit_options only = options;
    only.host_path_only = false;
    only.flags.push_back(path);
    for (std::size_t r : rows_differing(jit_compile(m, only), points, expected, limits))
      if (std::find(differ.begin(), differ.end(), r) == differ.end()) differ.push_back(r);
  }
  return differ;
}

// For a model over (N, T, S): 2,001 random points (N in 1..90, T in 1..40, S in 1..9; not a
// multiple of four, so that a batch's scalar tail runs too), the second one's N not finite (a
// bound that is not finite, in one lane of a batch of four), interpreted; then the rows whose
// compiled metrics differ from the interpreter's (compiled_rows_differing). The interpreter's
// first point must have a positive latency and the second a NaN one.
inline std::vector<std::size_t> sized_rows_differing(const design_model& m, const char* cache_name) {
  constexpr std::size_t count = 2001;
  std::mt19937_64 random(2026);
  std::vector<double> points(count * 3);
  for (std::size_t i = 0; i < count; ++i) {
    points[3 * i] = double(std::uniform_int_distribution<int>(1, 90)(random));
    points[3 * i + 1] = double(std::uniform_int_distribution<int>(1, 40)(random));
    points[3 * i + 2] = double(std::uniform_int_distribution<int>(1, 9)(random));
  }
  points[3] = 1e308 * 10;
  device_limits limits{1e9, 1e9, 1e9};
  std::vector<metrics> expected(count);
  std::vector<double> reference_points = points;
  interpreter(m).evaluate_batch(count, reference_points, expected, limits);
  CHECK(std::isnan(expected[1].latency));
  CHECK(expected[0].latency > 0);
  return compiled_rows_differing(m, cache_name, points, expected, limits);
}

}  // namespace sadsl::model::testing
