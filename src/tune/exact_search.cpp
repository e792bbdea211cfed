// The exact search: branch and bound over the tilings of the loops, one loop per level, with the
// lower bounds of bound.hpp. It proves optimality when it completes, and is the ground truth the
// heuristic searches are measured against.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <system_error>
#include <thread>

#include "bound.hpp"
#include "sadsl/error.hpp"
#include "searches.hpp"
#include "tracker.hpp"

namespace sadsl::tune {

namespace {

using detail::bound_model;
using detail::node_state;

constexpr double slack = 1e-9;  // bounds and the model round differently: never prune a tie
constexpr std::size_t leaf_checks = 8;  // direct monomials tried per tiling of the last loop
constexpr std::size_t node_term_checks = 8;  // direct terms tried at a node before its whole bound
constexpr std::uint64_t node_checks = 16;  // bounded nodes between two looks at the budget
constexpr std::size_t second_samples = 512;  // tilings of the second loop an order's estimate bounds per root
constexpr std::size_t batch_size = 4;  // points a compiled model evaluates at once in a leaf (its AVX2 lanes)

model::expr metric_expression(const model::design_model& m, const objective& goal) {
  switch (goal.kind) {
    case objective_kind::latency:
    case objective_kind::throughput: return model::metrics_of(m).latency;
    case objective_kind::offchip: return m.offchip_bytes;
    case objective_kind::dsp: return m.dsp;
    case objective_kind::custom: break;
  }
  throw error("the exact search needs an objective it can bound (latency, throughput, offchip or dsp), not a custom function");
}

// The `first`-ranked loop (by number of tilings, most first) leads, the others follow with many
// tilings first: the innermost level is scanned flat, so it should be the smallest.
std::vector<std::size_t> search_order(const design_space& space, std::size_t first) {
  std::vector<std::size_t> order(space.loops().size());
  for (std::size_t l = 0; l < order.size(); ++l) order[l] = l;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return space.loop_chain_count(a) > space.loop_chain_count(b);
  });
  std::rotate(order.begin(), order.begin() + static_cast<long>(first), order.begin() + static_cast<long>(first) + 1);
  return order;
}

class branch_and_bound {
public:
  /// Prunes what cannot cost less than the incumbent or `cutoff`.
  branch_and_bound(const design_space& space, const bound_model& bounds, tracker& track, unsigned threads,
                   double cutoff = std::numeric_limits<double>::infinity())
      : space_(space), bounds_(bounds), track_(track), threads_(threads), loops_(space.loops().size()), cutoff_(cutoff),
        reserve_each_(track.options().max_evaluations != 0) {
    std::size_t last = bounds_.order()[loops_ - 1];
    for (int m : bounds_.direct_monomials()) {
      int f = bounds_.node(m).factors[last];
      if (f < 0) continue;
      std::size_t table = static_cast<std::size_t>(f);
      if (table >= ascending_.size()) ascending_.resize(table + 1), least_.resize(table + 1);
      if (!ascending_[table].empty()) continue;
      const std::vector<double>& column = bounds_.table(f);
      std::vector<std::uint32_t> order(column.size());
      for (std::uint32_t c = 0; c < order.size(); ++c) order[c] = c;
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return column[a] < column[b]; });
      least_[table] = order.empty() ? 0 : column[order.front()];
      ascending_[table] = std::move(order);
    }
  }

  /// Searches the points whose chain indices come from `candidates` (per loop). Returns false
  /// when a budget or the stop flag ended it.
  bool run(const std::vector<std::vector<std::uint32_t>>& candidates) {
    candidates_ = &candidates;
    std::size_t last = bounds_.order()[loops_ - 1];
    is_candidate_.assign(space_.loop_chain_count(last), false);
    for (std::uint32_t c : candidates[last]) is_candidate_[c] = true;
    std::vector<std::pair<double, std::uint32_t>> roots = rank_roots();
    next_root_ = 0;
    std::vector<std::thread> workers;
    for (unsigned w = 1; w < threads_; ++w) {
      try {
        workers.emplace_back([&] { work(roots); });
      } catch (const std::system_error&) {
        break;  // the system has no more threads for us: the ones started share all the work
      }
    }
    work(roots);
    for (std::thread& t : workers) t.join();
    return !stopped_.load();
  }

  /// Work this search order would take given the incumbent, in rough microseconds: the surviving
  /// roots, times the second loop's tilings (a bound each) and the share of those that survive
  /// (a scan of the last loop each), measured on a few roots spread over the ranking.
  double estimated_work(const std::vector<std::vector<std::uint32_t>>& candidates) {
    candidates_ = &candidates;
    std::vector<std::pair<double, std::uint32_t>> roots = rank_roots();
    std::size_t surviving = 0;
    while (surviving < roots.size() && roots[surviving].first <= incumbent()) ++surviving;
    if (loops_ < 3 || surviving == 0) return static_cast<double>(surviving);
    std::size_t first = bounds_.order()[0], second = bounds_.order()[1], last = bounds_.order()[loops_ - 1];
    std::vector<std::uint32_t> chain(loops_, 0);
    const std::size_t samples = std::min<std::size_t>(8, surviving);
    // The second loop's tilings are sampled too, evenly: where few are pruned by the direct
    // terms, each costs a whole bound, and thousands of them (MM's [i,k] ordered by j) took
    // longer than the search the estimate chooses an order for.
    const std::vector<std::uint32_t>& seconds = candidates[second];
    const std::size_t sampled = std::min(seconds.size(), second_samples);
    double passed = 0, tried = 0;
    std::vector<int> term_order = bounds_.direct_terms();
    for (std::size_t k = 0; k < samples; ++k) {
      chain[first] = roots[k * surviving / samples].second;
      for (std::size_t n = 0; n < sampled; ++n) {
        if (static_cast<std::uint64_t>(tried) % node_checks == 0 && track_.exhausted()) return 0;  // the caller stops
        chain[second] = seconds[n * seconds.size() / sampled];
        bound_model::at_node here(bounds_, node_state{2, chain.data()});
        tried += 1;
        // As descend() prunes: a direct term is far cheaper than the whole bound.
        passed += !pruned(term_order, here);
      }
    }
    double per_root = static_cast<double>(candidates[second].size()) * (1.0 + passed / tried * 0.005 * static_cast<double>(candidates[last].size()));
    return static_cast<double>(surviving) * per_root;
  }

private:
  struct worker_state {
    std::vector<std::uint32_t> chain;
    std::vector<double> params;
    tiling point;
    std::vector<int> term_order;      // direct terms, most recently useful first
    std::vector<int> leaf_order;      // direct monomials likewise
    std::uint64_t since_check = 0;
    std::uint64_t uncounted = 0;  // evaluations not yet added to the tracker (one atomic add per batch)
    // Tilings of the last loop waiting to be evaluated together (compiled models: four points
    // cost about as much as one), their parameter rows, and the metrics the batch gives.
    std::vector<std::uint32_t> queued;
    std::vector<double> rows;
    std::vector<model::metrics> results;
  };

  bool check_budget(worker_state& w) {
    track_.count(w.uncounted);
    w.uncounted = 0;
    if (track_.exhausted()) stopped_.store(true);
    return stopped_.load(std::memory_order_relaxed);
  }

  double incumbent() const { return std::min(track_.best_cost(), cutoff_) * (1 + slack); }

  std::vector<std::pair<double, std::uint32_t>> rank_roots() {
    std::size_t first = bounds_.order()[0];
    std::vector<std::uint32_t> chain(loops_);
    std::vector<std::pair<double, std::uint32_t>> roots;
    std::vector<int> term_order = bounds_.direct_terms();
    std::uint64_t looked = 0;
    for (std::uint32_t c : (*candidates_)[first]) {
      if (++looked % node_checks == 0 && track_.exhausted()) {
        stopped_.store(true);  // run() reports the search as cut short
        break;
      }
      chain[first] = c;
      bound_model::at_node here(bounds_, node_state{1, chain.data()});
      // A root a direct term prunes would be pruned when its turn comes (the incumbent only falls).
      if (loops_ > 1 && (pruned_by_terms(term_order, here, node_term_checks) || here.resources_exceed())) continue;
      roots.emplace_back(loops_ > 1 ? here.objective() : 0.0, c);
    }
    std::sort(roots.begin(), roots.end());
    return roots;
  }

  void work(const std::vector<std::pair<double, std::uint32_t>>& roots) {
    worker_state w;
    w.chain.assign(loops_, 0);
    w.params.resize(space_.model().params.size());
    w.rows.resize(batch_size * w.params.size());
    w.results.resize(batch_size);
    w.point.assign(space_.width(), 0);
    w.term_order = bounds_.direct_terms();
    w.leaf_order = bounds_.direct_monomials();
    std::size_t first = bounds_.order()[0];
    space_.fill_parameters(space_.smallest(), w.params);  // problem sizes; the loops are overwritten
    while (!stopped_.load(std::memory_order_relaxed)) {
      std::size_t i = next_root_.fetch_add(1);
      if (i >= roots.size() || roots[i].first > incumbent()) break;  // ranked: the rest is worse
      w.chain[first] = roots[i].second;
      if (loops_ == 1) {  // the root loop is the last one: one scan covers it
        if (i == 0) leaf(w);
        continue;
      }
      if (loops_ == 2) leaf(w);  // the root is the only loop before the last one
      else descend(w, 1);
    }
    track_.count(w.uncounted);
  }

  // Tries the direct terms that pruned last (moved to the front), the resources, then the whole
  // bound. The objective is at least each direct term, so trying every term before it would only
  // repeat its walk; where it prunes, the term that exceeds (known by then) moves to the front.
  bool pruned(std::vector<int>& term_order, const bound_model::at_node& here) const {
    if (pruned_by_terms(term_order, here, node_term_checks) || here.resources_exceed()) return true;
    if (here.objective() <= incumbent()) return false;
    pruned_by_terms(term_order, here, term_order.size());
    return true;
  }

  // Tries the first `count` direct terms; moves a pruning one to the front.
  bool pruned_by_terms(std::vector<int>& term_order, const bound_model::at_node& here, std::size_t count) const {
    double limit = incumbent();
    for (std::size_t t = 0; t < std::min(count, term_order.size()); ++t) {
      if (here.term(term_order[t]) <= limit) continue;
      std::rotate(term_order.begin(), term_order.begin() + static_cast<long>(t), term_order.begin() + static_cast<long>(t) + 1);
      return true;
    }
    return false;
  }

  // Fixes the loop at `level` (not the last one) to each of its tilings in turn.
  void descend(worker_state& w, std::size_t level) {
    std::size_t loop = bounds_.order()[level];
    for (std::uint32_t c : (*candidates_)[loop]) {
      // A node's bound walks the model's whole bound tree (milliseconds for a CNN model): the
      // budget is asked often enough that it holds to a fraction of a second.
      if (++w.since_check % node_checks == 0 && check_budget(w)) return;
      w.chain[loop] = c;
      bound_model::at_node here(bounds_, node_state{level + 1, w.chain.data()});
      if (pruned(w.term_order, here)) continue;
      if (level + 2 == loops_) leaf(w);
      else descend(w, level + 1);
    }
  }

  // Every loop fixed but the last: scan its tilings, pruning with the direct monomials (a product
  // of table entries each), and evaluate the survivors with the model.
  void leaf(worker_state& w) {
    std::size_t last = bounds_.order()[loops_ - 1];
    std::size_t n_monomials = w.leaf_order.size();
    std::vector<double> partial(n_monomials);
    std::vector<const double*> column(n_monomials);
    prepare_partials(w, w.leaf_order, last, partial, column);
    const auto& resource_terms = bounds_.resource_monomials();
    std::vector<double> resource_limit(resource_terms.size());
    for (std::size_t r = 0; r < resource_terms.size(); ++r) resource_limit[r] = bounds_.resource_limit(resource_terms[r]) * (1 + 1e-12);
    const auto& cross = bounds_.cross_constraints();
    std::vector<int> cross_terms;
    for (const auto& k : cross) cross_terms.push_back(k.lhs), cross_terms.push_back(k.rhs);
    std::vector<double> cross_partial(cross_terms.size());
    std::vector<const double*> cross_column(cross_terms.size());
    prepare_partials(w, cross_terms, last, cross_partial, cross_column);
    std::vector<double> resource_partial(resource_terms.size());
    std::vector<const double*> resource_column(resource_terms.size());
    prepare_partials(w, resource_terms, last, resource_partial, resource_column);
    const auto& sums = bounds_.resource_sums();
    std::vector<double> sum_partial(bounds_.resource_sum_terms().size());
    std::vector<const double*> sum_column(sum_partial.size());
    prepare_partials(w, bounds_.resource_sum_terms(), last, sum_partial, sum_column);
    std::uint32_t saved = w.chain[last];
    // Scan in ascending order of the monomial that bounds this node most: once it exceeds the
    // incumbent, so does every later tiling.
    std::size_t lead = n_monomials;
    double lead_bound = -1;
    for (std::size_t m = 0; m < n_monomials; ++m) {
      if (!column[m]) continue;
      double least = partial[m] * least_[static_cast<std::size_t>(bounds_.node(w.leaf_order[m]).factors[last])];
      if (least > lead_bound) lead = m, lead_bound = least;
    }
    const std::vector<std::uint32_t>& scan =
        lead < n_monomials ? ascending_[static_cast<std::size_t>(bounds_.node(w.leaf_order[lead]).factors[last])]
                           : (*candidates_)[last];
    // Only the few monomials that pruned last (moved to the front): a compiler-built model has
    // hundreds, and checking them all costs more than evaluating the model.
    const std::size_t checked_monomials = std::min(n_monomials, leaf_checks);
    const double lead_partial = lead < n_monomials ? partial[lead] : 0;
    const double* lead_column = lead < n_monomials ? column[lead] : nullptr;
    for (std::uint32_t c : scan) {
      double limit = incumbent();
      if (lead_column) {
        if (lead_partial * lead_column[c] > limit) break;
        if (!is_candidate_[c]) continue;
      }
      bool pruned = false;
      for (std::size_t m = 0; m < checked_monomials && !pruned; ++m) {
        if (partial[m] * (column[m] ? column[m][c] : 1.0) <= limit) continue;
        std::swap(w.leaf_order[m], w.leaf_order[0]), std::swap(partial[m], partial[0]), std::swap(column[m], column[0]);
        pruned = true;
      }
      for (std::size_t r = 0; r < resource_terms.size() && !pruned; ++r)
        pruned = resource_partial[r] * (resource_column[r] ? resource_column[r][c] : 1.0) > resource_limit[r];
      for (std::size_t k = 0; k < cross.size() && !pruned; ++k) {
        double lhs = cross_partial[2 * k] * (cross_column[2 * k] ? cross_column[2 * k][c] : 1.0);
        double rhs = cross_partial[2 * k + 1] * (cross_column[2 * k + 1] ? cross_column[2 * k + 1][c] : 1.0);
        // Exact values when every loop is fixed, up to rounding: leave ties to the model.
        pruned = cross[k].at_least ? lhs < rhs * (1 - 1e-12) : lhs > rhs * (1 + 1e-12);
      }
      for (const auto& sum : sums) {
        if (pruned) break;
        double total = 0;
        for (std::size_t t = sum.first; t < sum.first + sum.count; ++t) total += sum_partial[t] * (sum_column[t] ? sum_column[t][c] : 1.0);
        pruned = total > sum.limit * (1 + 1e-12);
      }
      if (pruned) continue;
      if (reserve_each_ && !track_.reserve_evaluation()) {
        stopped_.store(true);
        break;
      }
      w.chain[last] = c;
      queue_point(w, last);
      if (++w.since_check % 256 == 0 && check_budget(w)) break;
    }
    evaluate_queued(w, last);
    w.chain[last] = saved;
  }

  void prepare_partials(const worker_state& w, const std::vector<int>& monomials, std::size_t last,
                        std::vector<double>& partial, std::vector<const double*>& column) {
    for (std::size_t m = 0; m < monomials.size(); ++m) {
      const detail::lb_node& n = bounds_.node(monomials[m]);
      partial[m] = n.coefficient;
      column[m] = nullptr;
      for (std::size_t loop = 0; loop < loops_; ++loop) {
        if (n.factors[loop] < 0) continue;
        if (loop == last) column[m] = bounds_.table(n.factors[loop]).data();
        else partial[m] *= bounds_.table(n.factors[loop])[w.chain[loop]];
      }
    }
  }

  // The point w.chain: its loops' factors written into `params` (the problem sizes stay).
  void fill_loops(const worker_state& w, double* params) const {
    for (std::size_t l = 0; l < loops_; ++l) {
      const tiled_loop& loop = space_.loops()[l];
      std::size_t levels = loop.levels.size();
      const std::int64_t* values = space_.loop_chains(l).data() + static_cast<std::size_t>(w.chain[l]) * levels;
      for (std::size_t level = 0; level < levels; ++level) params[loop.levels[level]] = static_cast<double>(values[level]);
    }
  }

  // The hot path. A compiled model evaluates the point w.chain with the next ones of the scan, in
  // one batch (the incumbent they prune with is up to three evaluations old: never a wrong prune,
  // and the ties still go to the smallest chain); the interpreter evaluates it at once.
  void queue_point(worker_state& w, std::size_t last) {
    if (!space_.evaluator().compiled()) {
      fill_loops(w, w.params.data());
      evaluation e;
      e.metrics = space_.evaluator().evaluate(w.params, space_.limits());
      record(w, e);
      return;
    }
    std::size_t width = w.params.size();
    double* row = w.rows.data() + w.queued.size() * width;
    std::copy(w.params.begin(), w.params.end(), row);
    fill_loops(w, row);
    w.queued.push_back(w.chain[last]);
    if (w.queued.size() == batch_size) evaluate_queued(w, last);
  }

  void evaluate_queued(worker_state& w, std::size_t last) {
    if (w.queued.empty()) return;
    std::size_t width = w.params.size();
    space_.evaluator().compiled()->evaluate_batch(w.queued.size(), w.rows.data(), w.results.data(), &space_.limits());
    for (std::size_t q = 0; q < w.queued.size(); ++q) {
      w.chain[last] = w.queued[q];
      std::copy(w.rows.begin() + static_cast<long>(q * width), w.rows.begin() + static_cast<long>((q + 1) * width),
                w.params.begin());
      evaluation e;
      e.metrics = w.results[q];
      record(w, e);
    }
    w.queued.clear();
  }

  // Counts the evaluation of w.chain (parameters in w.params) and offers it when it is the best.
  void record(worker_state& w, evaluation& e) {
    e.cost = track_.options().goal.cost(e.metrics, w.params);
    if (!reserve_each_) ++w.uncounted;
    if (!(e.cost <= track_.best_cost())) return;
    for (std::size_t l = 0; l < loops_; ++l) {
      const tiled_loop& loop = space_.loops()[l];
      for (std::size_t level = 0; level < loop.levels.size(); ++level)
        w.point[loop.offset + level] = static_cast<std::int64_t>(w.params[loop.levels[level]]);
    }
    std::lock_guard lock(best_mutex_);
    bool wins = e.cost < track_.best_cost() || best_key_.empty() || w.chain < best_key_;
    if (!wins) return;
    best_key_ = w.chain;
    track_.offer(w.point, e, true);
  }

  const design_space& space_;
  const bound_model& bounds_;
  tracker& track_;
  unsigned threads_;
  std::size_t loops_;
  double cutoff_;
  // With an evaluation budget each evaluation is reserved before it is made, so the budget holds
  // exactly whatever the threads do; without one, workers count in batches (one atomic add each).
  bool reserve_each_;
  const std::vector<std::vector<std::uint32_t>>* candidates_ = nullptr;
  std::atomic<std::size_t> next_root_{0};
  std::atomic<bool> stopped_{false};
  std::mutex best_mutex_;
  std::vector<std::uint32_t> best_key_;  // ties go to the smallest chain indices, whatever the threads do
  // By table id (a leaf asks once per direct monomial, thousands for a compiler-built model): the
  // chains of the last loop by ascending value, and the least value.
  std::vector<std::vector<std::uint32_t>> ascending_;
  std::vector<double> least_;
  std::vector<bool> is_candidate_;
};

// The tilings of each loop whose first-level tile divides the loop size (no padding): a small
// sub-space whose optimum is a good first incumbent.
std::vector<std::vector<std::uint32_t>> candidates(const design_space& space, bound_model& bounds, bool divisors_only) {
  std::vector<std::vector<std::uint32_t>> all(space.loops().size());
  for (std::size_t l = 0; l < all.size(); ++l) {
    std::size_t levels = space.loops()[l].levels.size();
    std::vector<bool> legal = bounds.legal_chains(l);
    for (std::uint32_t c = 0; c < space.loop_chain_count(l); ++c) {
      std::int64_t t1 = space.loop_chains(l)[c * levels];
      if (legal[c] && (!divisors_only || space.loops()[l].size % t1 == 0)) all[l].push_back(c);
    }
  }
  return all;
}

class exact_search final : public search {
public:
  std::string name() const override { return "exact"; }

  search_result run(const design_space& space, const search_options& options) const override {
    model::expr goal = metric_expression(space.model(), options.goal);
    space.check_fits();
    require_shallow(space, name());
    tracker track(space, options, name());
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    if (space.loops().empty()) {
      track.evaluate({});
      return track.finish(true);
    }
    if (track.exhausted()) return track.finish(false);
    try {
      return search_to_the_end(space, options, goal, track, threads);
    } catch (const bound_model::interrupted&) {
      return track.finish(false);  // a budget ran out while bounds were built
    }
  }

private:
  // The search once its first bounds are asked for: each bound model polls the budget while it
  // is built (bound_model::interrupted).
  static search_result search_to_the_end(const design_space& space, const search_options& options, const model::expr& goal,
                                         tracker& track, unsigned threads) {
    auto stopped = [&track] { return track.exhausted(); };
    bound_model bounds(space, goal, search_order(space, 0), stopped);
    // The first incumbent, from the tilings without padding, ignores the cutoff: every design
    // reports a point.
    branch_and_bound search(space, bounds, track, threads);
    if (!search.run(candidates(space, bounds, true))) return track.finish(false);
    // With an incumbent known, pick the loop to branch on first by how many nodes it leaves.
    std::vector<std::vector<std::uint32_t>> all = candidates(space, bounds, false);
    std::unique_ptr<bound_model> best_bounds;
    double best_nodes = branch_and_bound(space, bounds, track, threads, options.cutoff).estimated_work(all);
    for (std::size_t first = 1; first < space.loops().size() && space.loops().size() > 2; ++first) {
      if (track.exhausted()) return track.finish(false);  // each bound model takes a while to build
      auto other = std::make_unique<bound_model>(bounds, search_order(space, first));
      double nodes = branch_and_bound(space, *other, track, threads, options.cutoff).estimated_work(all);
      if (nodes < best_nodes) best_nodes = nodes, best_bounds = std::move(other);
    }
    const bound_model& chosen = best_bounds ? *best_bounds : bounds;
    search_result r = track.finish(branch_and_bound(space, chosen, track, threads, options.cutoff).run(all));
    r.cut_off = r.complete && std::isfinite(options.cutoff) && !(r.found && r.cost < options.cutoff);
    return r;
  }
};

}  // namespace

std::unique_ptr<search> make_exact_search() { return std::make_unique<exact_search>(); }

}  // namespace sadsl::tune
