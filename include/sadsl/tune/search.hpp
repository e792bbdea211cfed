#pragma once
// Searches over a design space, all behind one interface: exact (branch and bound), random,
// annealing, genetic, mp (Ipopt), genetic-mp and padding. Every search is deterministic for a
// seed and an evaluation budget, respects a time budget and a stop flag, and returns the best
// feasible point with its metrics and a trace.
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sadsl/tune/design_space.hpp"
#include "sadsl/tune/objective.hpp"

namespace sadsl::tune {

/// One improvement of the best point: after `evaluations` model evaluations and `seconds`.
struct trace_point {
  std::uint64_t evaluations = 0;
  double seconds = 0;
  double best_cost = 0;
};

/// Reported to search_options::on_progress about once per progress_seconds.
struct search_progress {
  std::string method;
  std::string design;
  std::uint64_t evaluations = 0;
  double seconds = 0;
  double best_cost = 0;  ///< +infinity while nothing feasible is known
};

/// Knobs of particular methods (the others ignore them).
struct search_settings {
  double alpha = 0.4;              ///< genetic: probability of factorization mutation (else random)
  std::size_t population = 100;    ///< genetic, genetic-mp
  std::size_t elite = 4;           ///< genetic: best individuals copied unchanged
  double mutation_rate = 0.8;      ///< genetic: probability that a child is mutated
  double second_mutation_rate = 0.3;  ///< genetic: probability that a mutated child is mutated again
  std::size_t restart_generations = 30;  ///< genetic: generations without progress before a restart
  double padding_threshold = 0.5;  ///< padding: counters break after ceil(f x sqrt(N)) misses
  std::size_t mp_starts = 4;       ///< mp: Ipopt starts per objective
  double mp_time_share = 0.2;      ///< genetic-mp: at most this share of the time goes to MP
  bool local_search = true;        ///< genetic-mp: polish each new best by pair-exchange local search
  /// tune_designs with exact: search each design only for points that beat the designs before it
  /// (search_options::cutoff); false proves every design's own optimum, for a full comparison.
  bool cutoff_across_designs = true;
  /// tune_designs with exact and a budget (seconds or evaluations): the part of a design's
  /// allowance the exact search may use (tune_designs). A design it does not finish in that is
  /// searched by genetic-mp with the rest, and reports the better of the two points. In (0, 1];
  /// 1: exact only.
  double exact_budget_share = 0.5;
};

struct search_options {
  objective goal;
  double seconds = 5;                 ///< time budget; <= 0 for none
  std::uint64_t max_evaluations = 0;  ///< evaluation budget; 0 for none
  std::uint64_t seed = 1;
  unsigned threads = 1;               ///< exact: worker threads (0: all hardware threads)
  const std::atomic<bool>* stop = nullptr;  ///< when it becomes true the search returns its best so far
  /// exact: only points that cost less than this are sought (tune_designs passes the best cost of
  /// the designs before); a design with none of them comes back complete and `cut_off`.
  double cutoff = std::numeric_limits<double>::infinity();
  std::function<void(const search_progress&)> on_progress;
  double progress_seconds = 1;
  search_settings settings;
};

struct search_result {
  std::string method;
  std::string design;
  std::uint64_t seed = 0;
  bool found = false;            ///< a feasible point was found
  tiling best;                   ///< the best feasible point (empty when none)
  std::vector<double> params;    ///< the model's parameter values at `best`, inferred ones included
  model::metrics metrics;
  double cost = 0;               ///< +infinity when nothing was found
  std::uint64_t evaluations = 0;
  double seconds = 0;
  bool complete = false;         ///< the method finished on its own (exact: optimality is proven)
  /// exact, complete, with a cutoff: no point of the design costs less than the cutoff, so `best`
  /// (the best point met on the way, at worst the best tiling without padding) is not proven optimal.
  bool cut_off = false;
  std::vector<trace_point> trace;
};

class search {
public:
  virtual ~search() = default;
  virtual std::string name() const = 0;
  virtual search_result run(const design_space& space, const search_options& options) const = 0;
};

/// "exact", "random", "annealing", "genetic", "mp", "genetic-mp" or "padding"; throws sadsl::error
/// naming the known methods otherwise.
std::unique_ptr<search> make_search(const std::string& method);
std::vector<std::string> search_methods();

}  // namespace sadsl::tune
