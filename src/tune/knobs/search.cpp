// The search loop: binds the problem, checks each outcome, records the history and the best test.
#include "sadsl/tune/knobs/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sadsl/error.hpp"
#include "search_state.hpp"

namespace sadsl::knobs {
namespace detail {

bound_problem bind(const problem& p) {
  if (p.knobs().empty()) throw error("tuning problem has no knobs");
  if (!p.objective()) throw error("tuning problem has no objective (call maximize or minimize)");
  bound_problem b{std::make_shared<const std::vector<knob>>(p.knobs()),
                  p.sensors(),
                  bound_feature(*p.objective(), p.sensors(), "objective '" + p.objective()->to_string() + "'"),
                  p.maximizing(),
                  {},
                  {}};
  for (const constraint& c : p.constraints())
    b.constraints.push_back(
        {bound_feature(c.value, p.sensors(), "constraint '" + c.name + "'"), c.limit, c.at_most, c.name});
  for (const proxy_constraint& pc : p.proxies())
    b.proxies.push_back(
        {pc.failure_kind,
         bound_feature(pc.proxy, p.sensors(), "proxy '" + pc.proxy.to_string() + "' of '" + pc.failure_kind + "'")});
  return b;
}

namespace {
std::vector<double> measured_sensors(const bound_problem& b, const configuration& c, const outcome& o) {
  std::vector<double> values(b.sensors.size(), std::numeric_limits<double>::quiet_NaN());
  for (const auto& [name, value] : o.sensors) {
    const auto it = std::find(b.sensors.begin(), b.sensors.end(), name);
    if (it == b.sensors.end())
      throw error("evaluation of " + c.to_string() + " reported sensor '" + name + "', which is not declared");
    if (!std::isfinite(value))
      throw error("evaluation of " + c.to_string() + " reported a non-finite value for sensor '" + name + "'");
    values[static_cast<std::size_t>(it - b.sensors.begin())] = value;
  }
  return values;
}

// A value a passing test must have: the objective and every constraint read only its sensors.
double required_value(const bound_feature& f, const std::vector<double>& sensors, const configuration& c,
                      const std::string& role) {
  const double v = f.evaluate(sensors);
  if (std::isnan(v))
    throw error("evaluation of " + c.to_string() + " passed but lacks a sensor read by " + role + " '" + f.text() +
                "'");
  if (!std::isfinite(v)) throw error(role + " '" + f.text() + "' is not finite at " + c.to_string());
  return v;
}

// Turns an evaluator's pass into a failure when a measured value breaks a `require` constraint.
void apply_constraints(const bound_problem& b, const std::vector<double>& sensors, const configuration& c, outcome& o) {
  for (const bound_constraint& k : b.constraints) {
    const double v = required_value(k.value, sensors, c, "constraint");
    if (k.at_most ? v <= k.limit : v >= k.limit) continue;
    o.passed = false;
    o.failure_kind = k.name;
    return;
  }
}

void record(search_state& s, configuration c, outcome o, double seconds) {
  const bound_problem& b = s.problem;
  tested_point point{c.coordinates(), measured_sensors(b, c, o), std::nullopt};
  std::optional<double> quality;
  if (o.passed) {
    quality = required_value(b.objective, point.sensors, c, "objective");
    apply_constraints(b, point.sensors, c, o);
    if (!o.passed) quality.reset();
  }
  if (quality) {
    point.score = b.maximizing ? *quality : -*quality;
    const test_record* best = s.result.best_test();
    const double best_score = best ? (b.maximizing ? *best->quality : -*best->quality) : 0;
    if (!best || *point.score > best_score) s.result.best = s.result.history.size();
  }
  if (s.pending_log_success) s.success_record.emplace_back(*s.pending_log_success, o.passed);
  s.pending_log_success.reset();
  s.tested.insert(c.settings());
  s.points.push_back(std::move(point));
  s.result.history.push_back({std::move(c), std::move(o), quality, seconds});
}

std::optional<configuration> next_configuration(search_state& s) {
  const int initial = s.options.initial_random_tests >= 0 ? s.options.initial_random_tests
                                                          : static_cast<int>(s.problem.knobs->size()) + 1;
  if (s.options.strategy == method::random || static_cast<int>(s.result.history.size()) < initial) {
    auto pick = untested_candidates(s, 1);
    if (pick.empty()) return std::nullopt;
    return std::move(pick.front());
  }
  return choose_modelled(s);
}

void check_options(const search_options& o) {
  if (o.tests < 1) throw error("search options: tests must be at least 1, got " + std::to_string(o.tests));
  if (!(o.seconds > 0)) throw error("search options: seconds must be positive");
  if (o.candidates < 1)
    throw error("search options: candidates must be at least 1, got " + std::to_string(o.candidates));
}
}  // namespace
}  // namespace detail

search_result search(const problem& p, const evaluator& evaluate, const search_options& options) {
  using clock = std::chrono::steady_clock;
  detail::check_options(options);
  const detail::bound_problem bound = detail::bind(p);
  detail::search_state s{bound, options, rng(options.seed), {}, {}, {}, {}, {}};
  const auto start = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  while (static_cast<int>(s.result.history.size()) < options.tests) {
    if (elapsed() >= options.seconds) {
      s.result.stopped_by_time = true;
      break;
    }
    std::optional<configuration> next = detail::next_configuration(s);
    if (!next) break;  // every configuration has been tested
    const double before = elapsed();
    outcome o = evaluate(*next);
    detail::record(s, std::move(*next), std::move(o), elapsed() - before);
  }
  return std::move(s.result);
}

}  // namespace sadsl::knobs
