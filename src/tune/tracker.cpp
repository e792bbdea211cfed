#include "tracker.hpp"

#include <limits>

namespace sadsl::tune {

tracker::tracker(const design_space& space, const search_options& options, std::string method)
    : space_(space), options_(options), method_(std::move(method)), start_(std::chrono::steady_clock::now()),
      best_cost_(std::numeric_limits<double>::infinity()), params_(space.model().params.size()) {}

double tracker::evaluate(const tiling& t) {
  evaluation e = space_.evaluate(t, options_.goal, params_);
  count(1);
  repeats_in_a_row_.store(0, std::memory_order_relaxed);
  offer(t, e);
  return e.cost;
}

double tracker::evaluate_cached(const tiling& t, bool count_repeats) {
  auto found = cache_.find(t);
  if (found != cache_.end()) {
    repeats_in_a_row_.fetch_add(1, std::memory_order_relaxed);
    if (count_repeats) count(1);
    return found->second;
  }
  double cost = evaluate(t);
  cache_.emplace(t, cost);
  return cost;
}

void tracker::offer(const tiling& t, const evaluation& e, bool wins_ties) {
  if (!(e.cost <= best_cost())) return;  // also rejects NaN
  std::lock_guard lock(mutex_);
  double best = best_cost_.load(std::memory_order_relaxed);
  if (e.cost > best || (e.cost == best && !wins_ties) || !e.feasible()) return;
  bool improved = e.cost < best;
  best_ = t;
  best_eval_ = e;
  best_cost_.store(e.cost, std::memory_order_relaxed);
  if (improved) trace_.push_back({evaluations(), elapsed(), e.cost});
}

bool tracker::exhausted() {
  if (options_.stop && options_.stop->load(std::memory_order_relaxed)) return true;
  if (options_.max_evaluations && evaluations() >= options_.max_evaluations) return true;
  if (repeats_in_a_row_.load(std::memory_order_relaxed) >= stalled_visits) return true;
  double now = elapsed();
  if (options_.on_progress && now - last_progress_.load() >= options_.progress_seconds) {
    std::lock_guard lock(mutex_);
    if (now - last_progress_.load() >= options_.progress_seconds) {
      last_progress_.store(now);
      options_.on_progress({method_, space_.name(), evaluations(), now, best_cost()});
    }
  }
  return options_.seconds > 0 && now >= options_.seconds;
}

std::uint64_t tracker::evaluations_left() const {
  if (!options_.max_evaluations) return std::numeric_limits<std::uint64_t>::max();
  std::uint64_t used = evaluations();
  return used >= options_.max_evaluations ? 0 : options_.max_evaluations - used;
}

double tracker::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

tiling tracker::best() const {
  std::lock_guard lock(const_cast<std::mutex&>(mutex_));
  return best_;
}

search_result tracker::finish(bool complete) {
  search_result r;
  r.method = method_;
  r.design = space_.name();
  r.seed = options_.seed;
  r.found = !best_.empty();
  r.best = best_;
  r.cost = best_cost();
  if (r.found) {
    r.params = space_.parameters(best_);
    r.metrics = space_.evaluate(best_, options_.goal, r.params).metrics;  // fills inferred values
  }
  r.evaluations = evaluations();
  r.seconds = elapsed();
  r.complete = complete;
  r.trace = trace_;
  return r;
}

}  // namespace sadsl::tune
