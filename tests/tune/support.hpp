#pragma once
// Helpers shared by the tuner tests: reference data, MM design spaces, a CSV reader.
#include "../support/test_support.hpp"
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sadsl/tune/design_space.hpp"
#include "sadsl/tune/search.hpp"
#include "../model/test_support.hpp"

namespace sadsl::tune::testing {

/// Reading it marks the test skipped in a checkout without ../shared.
inline std::filesystem::path odyssey_dir() { return sadsl::testing::shared_reference_dir() / "odyssey"; }

inline std::string gemm_descriptor(const std::string& design) {
  return (odyssey_dir() / "descriptors" / "gemm" / (design + ".json")).string();
}

/// One evaluator per design for the whole test program (compiling a model takes a moment).
inline std::shared_ptr<const model::evaluator> gemm_evaluator(const std::string& design) {
  static std::map<std::string, std::shared_ptr<const model::evaluator>> cache;
  auto& slot = cache[design];
  if (!slot) slot = load_descriptor(gemm_descriptor(design));
  return slot;
}

inline design_space mm_space(const std::string& design, std::int64_t n = 1024, space_options options = {}) {
  return design_space(gemm_evaluator(design), {{"i", n}, {"j", n}, {"k", n}}, builtin_device("u250"), options);
}

/// Options with an evaluation budget and no time budget: the run is the same on every machine.
inline search_options evaluation_budget(std::uint64_t evaluations, std::uint64_t seed = 1) {
  search_options o;
  o.seconds = 0;
  o.max_evaluations = evaluations;
  o.seed = seed;
  return o;
}

using model::testing::read_csv;  // the model tests' CSV reader

}  // namespace sadsl::tune::testing
