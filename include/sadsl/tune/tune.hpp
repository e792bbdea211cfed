#pragma once
// Tuning one or several designs of a kernel (all dataflows x permutations) and the tuned
// configuration: the JSON record of the chosen design point and its predicted performance.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sadsl/tune/design_space.hpp"
#include "sadsl/tune/search.hpp"

namespace sadsl::tune {

/// The outcome of tuning several designs: the best per design and the best overall.
struct multi_result {
  /// In the order of the spaces given (the exact search takes them best first, ranked by a short
  /// random search, so that the cutoff across designs is low early). A design a stop left
  /// unsearched, or that does not fit, has found = false. A design whose exact search a budget
  /// ended before it found a point (its bounds not yet built) reports its ranking's result
  /// (method "random", not complete).
  std::vector<search_result> per_design;
  /// Index of the best design in per_design; per_design.size() when none found a feasible point.
  std::size_t best_index = 0;
  bool found() const { return best_index < per_design.size(); }
  const search_result& best() const { return per_design.at(best_index); }
};

/// Whether the best point is proven optimal over every design, not only in its own: the best
/// design's exact search finished, and so did every other design's (one cut off at the cost of
/// the designs before it cannot beat them) or its space cannot fit the device. A budget that ends
/// before a design's exact search finishes (genetic-mp then searches it), or a stop that leaves
/// a design unsearched, leaves the optimum unproven, whatever the best design's own proof.
bool proven_optimal(const multi_result& result);
/// Whether every design's search finished on its own (exact: its space covered, or cut off).
bool complete(const multi_result& result);

/// Runs `method` on every space, one after the other, sharing the budget (seconds and
/// evaluations; a design that finishes early leaves the rest to the next ones). Designs that
/// cannot fit the device (does_not_fit) are skipped (their result has found == false); if none
/// fits, the first one's error is thrown. Most methods give each design an equal share of what is
/// left. "exact" with a budget searches the designs best first (ranked by a short random search):
/// a design's exact search may use search_settings::exact_budget_share of eight equal shares of
/// what is left (at most half of it while other designs follow), since proofs differ by that
/// much and the best-ranked design's, without a cutoff, is often the longest; a design it does not
/// finish there is searched by genetic-mp with the rest of an equal share: exact where it finishes
/// in the budget, genetic-mp otherwise. That design's result is the better point of the two (its
/// method says whose; evaluations and seconds count both searches; not complete). Designs left
/// when the budget is used up are not searched: an exact tuning reports their ranking's point
/// (method "random", not complete).
multi_result tune_designs(const std::vector<design_space>& spaces, const std::string& method, const search_options& options);

/// The work of one run of the kernel at the tuned problem sizes, computed by the caller from the
/// kernel (operations per statement instance x instances; e.g. MM: 2 x I x J x K), since the
/// tuner does not see kernels.
struct workload {
  double operations = 0;       ///< > 0 and finite
  bool floating_point = true;  ///< GFLOP/s, else GOP/s
  /// The kernel's operations per DSP slice and cycle when every DSP works (fp32 multiply-add: 2
  /// operations on 5 DSPs, 0.4); 0 when not known, and then there is no DSP efficiency.
  double operations_per_dsp = 0;
};

/// The tuned configuration of `result` (a point of `space`): the design (the model's name and
/// source), every parameter with its origin, problem and padded sizes, predicted latency (cycles,
/// seconds), throughput at the device clock when the workload is given (else null: the tuner
/// never guesses a kernel's work), DSP/BRAM18K/URAM/LUT use and fractions of the device, the DSP
/// efficiency (the throughput over the peak of the DSPs used, null when the workload does not
/// give `operations_per_dsp` or the design uses no DSP), off-chip
/// bytes, and how it was found (method, seed, objective, time, evaluations, proven optimal).
/// Throws sadsl::error for a workload whose operation count is not positive and finite.
nlohmann::ordered_json tuned_configuration(const design_space& space, const search_result& result, const objective& goal,
                                           const std::optional<workload>& work = std::nullopt);

/// The tuned configuration of a multi-design run: its best design's (the first design's when none
/// found a point), with `complete` and `proven_optimal` over all designs (complete(),
/// proven_optimal()), not the best design's own.
nlohmann::ordered_json tuned_configuration(const std::vector<design_space>& spaces, const multi_result& result,
                                           const objective& goal, const std::optional<workload>& work = std::nullopt);

/// The per-design comparison of a multi-design run, one row per design (JSON array): design,
/// source, latency, relative to the best, DSP, BRAM18K, the point (tiling factors) and effort.
nlohmann::ordered_json comparison_table(const std::vector<design_space>& spaces, const multi_result& result);

}  // namespace sadsl::tune
