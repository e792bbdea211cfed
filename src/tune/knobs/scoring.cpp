// Candidate scoring (paper 004 sections 4, 4.1 and 7.1):
//   score(c) = P(quality(c) > target) x min over constraints P(c satisfies it).
#include <algorithm>
#include <cmath>
#include <limits>

#include "sadsl/tune/knobs/cutoff.hpp"
#include "search_state.hpp"

namespace sadsl::knobs::detail {

namespace {
// Evenness of the tested points that the target adjustment steers towards: the ratio of their mean
// nearest-neighbour distance to that of as many uniformly random points. 1 is "as even as random",
// below is clustered. The ideal is neither evenly spread nor narrowly focused (section 7.1).
constexpr double evenness_goal = 0.6;
// How far (in standard deviations of the passing qualities) the target moves per unit of evenness error.
constexpr double target_gain = 1.0;

using models = std::vector<std::optional<regression>>;

std::optional<regression> fit(const search_state& s, const std::vector<double>& values_of_tests) {
  std::vector<std::vector<double>> points;
  std::vector<double> values;
  for (std::size_t i = 0; i < s.points.size(); ++i)
    if (!std::isnan(values_of_tests[i])) {
      points.push_back(s.points[i].coordinates);
      values.push_back(values_of_tests[i]);
    }
  if (points.empty()) return std::nullopt;
  return regression(std::move(points), std::move(values), s.options.neighbours);
}

// One regression per sensor that the given features read, over the tests that measured it.
models fit_sensors(const search_state& s, const std::vector<const bound_feature*>& features) {
  models m(s.problem.sensors.size());
  for (const bound_feature* f : features)
    for (int index : f->sensor_indices()) {
      if (m[static_cast<std::size_t>(index)]) continue;
      std::vector<double> column;
      for (const tested_point& p : s.points) column.push_back(p.sensors[static_cast<std::size_t>(index)]);
      m[static_cast<std::size_t>(index)] = fit(s, column);
    }
  return m;
}

// The prediction of a feature at a candidate, or nothing if one of its sensors was never measured.
std::optional<normal> predict(const bound_feature& f, const models& m, const std::vector<double>& at) {
  std::vector<normal> sensors(m.size());
  for (int index : f.sensor_indices()) {
    const auto& model = m[static_cast<std::size_t>(index)];
    if (!model) return std::nullopt;
    sensors[static_cast<std::size_t>(index)] = model->predict(at);
  }
  return f.evaluate(sensors);
}

// The cutoff of a proxy constraint from the tests so far: a test counts as passed if it passed or
// got past this failure kind before failing otherwise; tests that failed in other ways say nothing.
std::optional<normal> proxy_cutoff(const search_state& s, const bound_proxy& p) {
  std::vector<double> passed, failed;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const double v = p.proxy.evaluate(s.points[i].sensors);
    if (std::isnan(v)) continue;
    const outcome& o = s.result.history[i].result;
    if (!o.passed && o.failure_kind == p.failure_kind)
      failed.push_back(v);
    else if (o.passed || std::find(o.cleared.begin(), o.cleared.end(), p.failure_kind) != o.cleared.end())
      passed.push_back(v);
  }
  return failure_cutoff(passed, failed);
}

double mean_nearest_distance(const std::vector<std::vector<double>>& points) {
  double sum = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < points.size(); ++j)
      if (j != i) nearest = std::min(nearest, manhattan(points[i], points[j]));
    sum += nearest;
  }
  return sum / static_cast<double>(points.size());
}

double evenness(search_state& s) {
  std::vector<std::vector<double>> tested, reference;
  for (const tested_point& p : s.points) tested.push_back(p.coordinates);
  const std::vector<knob>& knobs = *s.problem.knobs;
  for (std::size_t n = 0; n < tested.size(); ++n) {
    std::vector<std::uint32_t> settings(knobs.size());
    for (std::size_t i = 0; i < knobs.size(); ++i)
      settings[i] = static_cast<std::uint32_t>(s.random.below(knobs[i].size()));
    reference.push_back(configuration(s.problem.knobs, settings).coordinates());
  }
  const double expected = mean_nearest_distance(reference);
  return expected > 0 ? mean_nearest_distance(tested) / expected : 1.0;
}

// Target quality (section 7.1): the best passing score, raised when the tested points cluster
// (a higher target favours uncertain candidates far from tests) and lowered when they spread too
// evenly. (The paper's text states the opposite sign, which would reinforce the imbalance; we use
// the direction its own explanation implies.)
std::optional<double> target_score(search_state& s) {
  std::vector<double> scores;
  for (const tested_point& p : s.points)
    if (p.score) scores.push_back(*p.score);
  if (scores.empty()) return std::nullopt;
  const double best = *std::max_element(scores.begin(), scores.end());
  if (scores.size() < 2 || s.points.size() < 3) return best;
  double mean = 0, variance = 0;
  for (double v : scores) mean += v;
  mean /= static_cast<double>(scores.size());
  for (double v : scores) variance += (v - mean) * (v - mean);
  const double spread = std::sqrt(variance / static_cast<double>(scores.size()));
  const double shift = std::clamp(target_gain * (evenness_goal - evenness(s)), -1.0, 1.0);
  return best + shift * spread;
}

// Constraint scaling: the exponent a such that the modelled picks' predicted success probabilities,
// raised to a, average to their observed success rate (with a Laplace prior). a > 1 when the
// predictions were too optimistic, a < 1 when too pessimistic; 1 until there are a few picks.
double success_exponent(const search_state& s) {
  const auto& record = s.success_record;
  if (record.size() < 3) return 1.0;
  double passed = 0;
  for (const auto& r : record) passed += r.second;
  const double rate = (passed + 1) / (static_cast<double>(record.size()) + 2);
  auto predicted_rate = [&](double a) {
    double sum = 0;
    for (const auto& r : record) sum += std::exp(a * r.first);
    return sum / static_cast<double>(record.size());
  };
  double lo = std::log(0.25), hi = std::log(16.0);  // bisection on log a; predicted_rate falls with a
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (predicted_rate(std::exp(mid)) > rate ? lo : hi) = mid;
  }
  return std::exp((lo + hi) / 2);
}

struct scorer {
  search_state& s;
  bool trivial;
  models sensors;
  std::optional<regression> trivial_quality;   // trivial failures: one regression of quality
  std::vector<std::optional<normal>> cutoffs;  // per proxy
  std::optional<double> target;
  double success_scale = 1.0;

  explicit scorer(search_state& state) : s(state), trivial(state.options.strategy == method::trivial_failures) {
    target = target_score(s);
    if (trivial) {
      fit_trivial_quality();
      return;
    }
    std::vector<const bound_feature*> features{&s.problem.objective};
    for (const bound_constraint& c : s.problem.constraints) features.push_back(&c.value);
    for (const bound_proxy& p : s.problem.proxies) features.push_back(&p.proxy);
    sensors = fit_sensors(s, features);
    for (const bound_proxy& p : s.problem.proxies) cutoffs.push_back(proxy_cutoff(s, p));
    success_scale = success_exponent(s);
  }

  // Failed tests get the lowest passing quality seen so far (section 8's baseline).
  void fit_trivial_quality() {
    double lowest = 0;
    bool any = false;
    for (const tested_point& p : s.points)
      if (p.score) lowest = any ? std::min(lowest, *p.score) : *p.score, any = true;
    std::vector<double> column;
    for (const tested_point& p : s.points) column.push_back(p.score ? *p.score : lowest);
    trivial_quality = fit(s, column);
  }

  // log P(quality > target); 0 (certainty) while nothing has passed or quality cannot be predicted.
  double log_quality_probability(const std::vector<double>& at) const {
    if (!target) return 0;
    std::optional<normal> q =
        trivial ? std::optional<normal>(trivial_quality->predict(at)) : predict(s.problem.objective, sensors, at);
    if (!q) return 0;
    if (!trivial && !s.problem.maximizing) q->mean = -q->mean;
    return log_probability_above(*q, *target);
  }

  // log of the minimum over constraints of P(constraint holds) (section 4: the optimistic minimum
  // rather than the product, since resource constraints are strongly correlated).
  double log_success_probability(const std::vector<double>& at) const {
    double p = 0;
    if (trivial) return p;
    for (const bound_constraint& c : s.problem.constraints)
      if (auto v = predict(c.value, sensors, at))
        p = std::min(p, c.at_most ? log_probability_below(*v, c.limit) : log_probability_above(*v, c.limit));
    for (std::size_t i = 0; i < s.problem.proxies.size(); ++i)
      if (cutoffs[i])
        if (auto v = predict(s.problem.proxies[i].proxy, sensors, at))
          p = std::min(p, log_probability_below(*v, *cutoffs[i]));
    return success_scale * p;
  }
};

double distance_to_tests(const search_state& s, const std::vector<double>& at) {
  double nearest = std::numeric_limits<double>::infinity();
  for (const tested_point& p : s.points) nearest = std::min(nearest, manhattan(at, p.coordinates));
  return nearest;
}
}  // namespace

// Candidates rank by their score (in logarithms, so that scores too small for a double still
// order), then by their chance of success, then by distance from tested points: when predictions
// are certain the score ties (at 0 or 1), and the most informative test is a feasible one in empty space.
struct ranking {
  double log_score = -std::numeric_limits<double>::infinity();
  double log_success = -std::numeric_limits<double>::infinity();
  double distance = -1;
  bool operator>(const ranking& o) const {
    if (log_score != o.log_score) return log_score > o.log_score;
    if (log_success != o.log_success) return log_success > o.log_success;
    return distance > o.distance;
  }
};

std::optional<configuration> choose_modelled(search_state& s) {
  std::vector<configuration> candidates = untested_candidates(s, static_cast<std::size_t>(s.options.candidates));
  if (candidates.empty()) return std::nullopt;
  const scorer score(s);
  std::size_t best = 0;
  ranking best_rank;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::vector<double> at = candidates[i].coordinates();
    const double log_success = score.log_success_probability(at);
    const ranking rank{score.log_quality_probability(at) + log_success, log_success, distance_to_tests(s, at)};
    if (i == 0 || rank > best_rank) best = i, best_rank = rank;
  }
  s.pending_log_success = best_rank.log_success;
  return std::move(candidates[best]);
}

}  // namespace sadsl::knobs::detail
