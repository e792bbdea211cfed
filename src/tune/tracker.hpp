#pragma once
// Internal: what every search shares: counting evaluations, the budgets and the stop flag, the
// best point so far, the trace of improvements and progress reports. Safe to use from several
// threads (the exact search's workers).
#include <atomic>
#include <chrono>
#include <mutex>
#include <unordered_map>

#include "sadsl/tune/search.hpp"

namespace sadsl::tune {

struct tiling_hash {
  std::size_t operator()(const tiling& t) const {
    std::size_t h = 0x9e3779b97f4a7c15ULL;
    for (std::int64_t v : t) h = (h ^ static_cast<std::size_t>(v)) * 0x100000001b3ULL;
    return h;
  }
};

class tracker {
public:
  tracker(const design_space& space, const search_options& options, std::string method);

  /// Evaluates `t` (counted) and keeps it if it is the best so far; returns its cost.
  double evaluate(const tiling& t);
  /// The same, answered from a cache for points seen before (not counted again). A search that
  /// proposes only points it has seen, stalled_visits times in a row, is exhausted: with no
  /// time budget it would otherwise never reach its evaluation budget (annealing in a small
  /// neighbourhood, a converged population).
  /// `count_repeats`: a point seen before still counts as one evaluation (annealing's budget is
  /// its steps: at a local optimum whose neighbours are all known it would never use it up).
  double evaluate_cached(const tiling& t, bool count_repeats = false);
  static constexpr std::uint64_t stalled_visits = std::uint64_t{1} << 18;
  /// Offers a point evaluated elsewhere; `less_key` breaks ties deterministically (true: `t` wins
  /// a tie against the current best).
  void offer(const tiling& t, const evaluation& e, bool wins_ties = false);
  void count(std::uint64_t evaluations) { evaluations_.fetch_add(evaluations, std::memory_order_relaxed); }
  /// Counts one evaluation if the evaluation budget allows it (always without one): searches
  /// whose workers count in batches reserve each evaluation so that the budget holds exactly.
  bool reserve_evaluation() {
    if (!options_.max_evaluations) return true;
    std::uint64_t used = evaluations_.load(std::memory_order_relaxed);
    do {
      if (used >= options_.max_evaluations) return false;
    } while (!evaluations_.compare_exchange_weak(used, used + 1, std::memory_order_relaxed));
    return true;
  }

  /// True when the stop flag is set or a budget is used up; also emits progress reports.
  bool exhausted();
  /// Evaluations left before the evaluation budget (a large number when there is none).
  std::uint64_t evaluations_left() const;
  std::uint64_t evaluations() const { return evaluations_.load(std::memory_order_relaxed); }
  double elapsed() const;
  double best_cost() const { return best_cost_.load(std::memory_order_relaxed); }
  tiling best() const;

  const design_space& space() const { return space_; }
  const search_options& options() const { return options_; }
  search_result finish(bool complete);

private:
  const design_space& space_;
  const search_options& options_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> evaluations_{0};
  std::atomic<std::uint64_t> repeats_in_a_row_{0};
  std::atomic<double> best_cost_;
  std::mutex mutex_;
  tiling best_;
  evaluation best_eval_;
  std::vector<trace_point> trace_;
  std::atomic<double> last_progress_{0};
  std::vector<double> params_;
  std::unordered_map<tiling, double, tiling_hash> cache_;
};

}  // namespace sadsl::tune
