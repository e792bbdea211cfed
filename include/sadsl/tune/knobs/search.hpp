#pragma once
// The tuning-knob search (paper 004, Figure 8 with the enhancements of section 7) and its two
// baselines. Each step predicts every sensor at 100 random untested candidates, scores each with
//   P(quality > target) x min over constraints P(constraint holds)
// and tests the best one. Same problem, evaluator and seed: the same sequence of tests.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "sadsl/tune/knobs/problem.hpp"
#include "sadsl/tune/knobs/regression.hpp"

namespace sadsl::knobs {

enum class method {
  full,              // predictions of quality and of every constraint
  random,            // pseudorandom untested configurations
  trivial_failures,  // same search, but a failed test just gets the lowest quality seen so far
};

struct search_options {
  int tests = 50;                                            // stop after this many tests
  double seconds = std::numeric_limits<double>::infinity();  // or when this much time has passed
  std::uint64_t seed = 1;
  method strategy = method::full;
  neighbourhood neighbours = neighbourhood::k_nearest;
  int candidates = 100;           // random untested candidates scored per step
  int initial_random_tests = -1;  // tests chosen at random before modelling; -1: knobs + 1
};

/// One evaluated configuration.
struct test_record {
  configuration config;
  outcome result;                 // as returned, plus failures of `require` constraints
  std::optional<double> quality;  // the objective's value if the test passed
  double seconds = 0;             // time spent in the evaluator
};

struct search_result {
  std::vector<test_record> history;  // in test order
  std::optional<std::size_t> best;   // index into history of the best passing test
  bool stopped_by_time = false;
  /// The best passing test, or nullptr if none passed.
  const test_record* best_test() const { return best ? &history[*best] : nullptr; }
};

using evaluator = std::function<outcome(const configuration&)>;

/// Runs the search. Throws sadsl::error for an ill-formed problem (no knobs, no objective, a
/// feature reading an undeclared sensor, ...) or a malformed outcome (undeclared sensor, a passing
/// test without a value the objective needs).
search_result search(const problem& p, const evaluator& evaluate, const search_options& options = {});

}  // namespace sadsl::knobs
