// Interpreter, code compiled ahead of time (sadsl_add_model) and code compiled at run time agree
// bit for bit on 20,000 random points of every Odyssey model (18 MM, 30 CNN), through both the
// single-point entry and the batch entry (both take the AVX-512 or AVX2 path where available). The
// code compiled at run time is the same emitted C++ as the code compiled ahead of time: every MM
// model and one tile order per CNN dataflow (10 of 30, each order in turn) take the JIT twice, as
// the JIT builds it for this machine and with the scalar path only (SADSL_SCALAR_ONLY, which is
// what a machine without AVX2 runs), and on a machine with AVX-512 a third time with the AVX2 path
// only (what a machine without AVX-512 runs); the compiler runs take most of this test's time.
#include <catch2/catch.hpp>
#include <cstring>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"
#include "compiled_rows.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace {

constexpr std::size_t point_count = 20000;  // at least 1,000 legal ones per model (checked below)

bool same_bits(const metrics& a, const metrics& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Returns the number of points (and parameters) on which `compiled` differs from the reference.
std::size_t mismatches(const compiled_model& compiled, const std::vector<double>& points,
                       const std::vector<double>& reference_points, const std::vector<metrics>& reference,
                       const device_limits& limits) {
  std::size_t width = points.size() / point_count;
  std::vector<double> batch_points = points;
  std::vector<metrics> batch(point_count);
  compiled.evaluate_batch(point_count, batch_points.data(), batch.data(), &limits);
  std::size_t differ = 0;
  for (std::size_t n = 0; n < point_count; ++n) {
    std::vector<double> single(points.begin() + n * width, points.begin() + (n + 1) * width);
    metrics one;
    compiled.evaluate(single.data(), &one, &limits);
    bool same = same_bits(one, reference[n]) && same_bits(batch[n], reference[n]) &&
                std::memcmp(single.data(), &reference_points[n * width], width * sizeof(double)) == 0 &&
                std::memcmp(&batch_points[n * width], &reference_points[n * width], width * sizeof(double)) == 0;
    differ += same ? 0 : 1;
  }
  // Batches of fewer points than a vector holds (the rest of a batch: one group of copies, the
  // inferred parameters written back), of 1 .. 7 points.
  for (std::size_t few = 1; few < 8; ++few) {
    std::vector<double> rows(points.begin(), points.begin() + few * width);
    std::vector<metrics> out(few);
    compiled.evaluate_batch(few, rows.data(), out.data(), &limits);
    for (std::size_t n = 0; n < few; ++n)
      differ += same_bits(out[n], reference[n]) &&
                        std::memcmp(&rows[n * width], &reference_points[n * width], width * sizeof(double)) == 0
                    ? 0
                    : 1;
  }
  return differ;
}

void check_three_ways(const std::string& kernel, const std::string& design, const std::filesystem::path& cache,
                      bool run_time_too = true) {
  design_model model = import_odyssey_descriptor(testing::descriptor(kernel, design));
  interpreter reference(model);
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  std::vector<double> points = testing::random_points(model, point_count, 2026);
  std::vector<double> reference_points = points;
  std::vector<metrics> expected(point_count);
  reference.evaluate_batch(point_count, reference_points, expected, u250);

  std::size_t legal = 0;
  for (const metrics& m : expected) legal += m.legal != 0 ? 1 : 0;
  INFO(kernel << "/" << design << ": " << legal << " legal points");
  CHECK(legal > point_count / 20);

  const compiled_abi* ahead = find_ahead_of_time(model_hash(model));
  REQUIRE(ahead != nullptr);
  CHECK(mismatches(compiled_model(ahead, nullptr), points, reference_points, expected, u250) == 0);
  if (!run_time_too) return;

  jit_options options;
  options.cache_dir = cache;
  CHECK(mismatches(jit_compile(model, options), points, reference_points, expected, u250) == 0);
  std::vector<std::string> others = {"-DSADSL_SCALAR_ONLY"};
  if (testing::host_runs_avx512()) others.push_back("-DSADSL_AVX2_ONLY");
  for (const std::string& path : others) {
    INFO(path);
    jit_options only = options;
    only.host_path_only = false;
    only.flags.push_back(path);
    CHECK(mismatches(jit_compile(model, only), points, reference_points, expected, u250) == 0);
  }
}

}  // namespace

TEST_CASE("MM models: interpreter, ahead-of-time and run-time compiled code agree on 20,000 points", "[three-way]") {
  testing::temporary_cache cache("three-way-mm");
  for (const std::string& design : testing::gemm_designs()) check_three_ways("gemm", design, cache.dir);
}

TEST_CASE("CNN models: interpreter and ahead-of-time code agree on 20,000 points, run-time compiled code on 10 models", "[three-way]") {
  testing::temporary_cache cache("three-way-cnn");
  for (int dataflow = 0; dataflow < 10; ++dataflow)
    for (int order = 0; order < 3; ++order)
      check_three_ways("cnn", "kernel" + std::to_string(dataflow) + "_" + std::to_string(order), cache.dir,
                       order == dataflow % 3);
}
