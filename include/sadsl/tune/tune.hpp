#pragma once
// Tuning one or several designs of a kernel (all dataflows x permutations) and the tuned
// configuration: the JSON record of the chosen design point and its predicted performance.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sadsl/tune/design_space.hpp"
#include "sadsl/tune/search.hpp"

namespace sadsl::tune {

/// The outcome of tuning several designs: the best per design and the best overall.
struct multi_result {
  std::vector<search_result> per_design;  ///< in the order of the spaces given
  /// Index of the best design in per_design; per_design.size() when none found a feasible point.
  std::size_t best_index = 0;
  bool found() const { return best_index < per_design.size(); }
  const search_result& best() const { return per_design.at(best_index); }
};

/// Runs `method` on every space, one after the other, sharing the budget: each design gets an
/// equal share of the seconds and of the evaluations (a design that finishes early leaves its
/// time to the next ones). Designs that cannot fit the device are skipped (their result has
/// found == false); if none fits, the first one's error is thrown.
multi_result tune_designs(const std::vector<design_space>& spaces, const std::string& method, const search_options& options);

/// The tuned configuration of `result` (a point of `space`): design (dataflow, permutation), all
/// parameters, problem and padded sizes, predicted latency (cycles, seconds) and throughput at
/// the device clock, DSP/BRAM18K/URAM/LUT use and fractions of the device, off-chip bytes, and
/// how it was found (method, seed, objective, time, evaluations, whether proven optimal).
nlohmann::ordered_json tuned_configuration(const design_space& space, const search_result& result, const objective& goal);

/// The per-design comparison of a multi-design run, one row per design (JSON array).
nlohmann::ordered_json comparison_table(const std::vector<design_space>& spaces, const multi_result& result);

}  // namespace sadsl::tune
