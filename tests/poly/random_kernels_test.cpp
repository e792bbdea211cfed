// Randomized differential test: random small kernels (affine bounds, accesses, guards, several
// statements, time loops) built through the DSL. Each either throws sadsl::error or records
// cleanly, and then the isl-based interpreter agrees bit for bit with a naive evaluator that walks
// the DSL's own loop structure (no isl). Never a crash, an isl abort or an internal error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>

#include <sadsl/sadsl.hpp>

#include "../support/random_kernel.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using sadsl::testing::random_kernel_builder;
using sadsl::testing::seeded_choices;

TEST_CASE("random kernels: interpreter equals the naive evaluator, errors are sadsl::error") {
  int recorded = 0, rejected = 0;
  for (uint64_t seed = 0; seed < 800; ++seed) {
    INFO("seed " << seed);
    std::optional<kernel> k;
    std::optional<program> p;
    try {
      k = random_kernel_builder(seeded_choices(seed)).make();
      p = build_program(*k);
    } catch (const sadsl::error& e) {
      if (std::getenv("SADSL_SHOW_REJECTED")) std::printf("%s\n", e.what());
      ++rejected;
      continue;
    }
    ++recorded;
    buffers by_isl(*k), naive(*k);
    by_isl.randomize_inputs(seed);
    naive.randomize_inputs(seed);
    sadsl::testing::run_checked(*p, by_isl);
    sadsl::testing::run_naive(*k, naive);
    CHECK(by_isl == naive);
  }
  INFO("recorded " << recorded << ", rejected " << rejected);
  CHECK(recorded >= 200);
  CHECK(rejected >= 100);  // the generator also exercises the error paths
}
