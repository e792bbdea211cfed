#include "sadsl/tune/knobs/problem.hpp"

#include <algorithm>
#include <cmath>

#include "sadsl/error.hpp"

namespace sadsl::knobs {

namespace {
std::string limit_text(double limit) {
  std::string text = std::to_string(limit);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

constraint make_constraint(const feature& value, double limit, bool at_most) {
  if (!std::isfinite(limit)) throw error("constraint on '" + value.to_string() + "': the limit must be finite");
  return {value, limit, at_most, value.to_string() + (at_most ? " <= " : " >= ") + limit_text(limit)};
}
}  // namespace

constraint operator<=(const feature& value, double limit) { return make_constraint(value, limit, true); }
constraint operator>=(const feature& value, double limit) { return make_constraint(value, limit, false); }

outcome outcome::pass(std::map<std::string, double> sensors) { return {true, {}, std::move(sensors), {}}; }

outcome outcome::fail(std::string kind, std::map<std::string, double> sensors, std::vector<std::string> cleared) {
  if (kind.empty()) throw error("a failed outcome needs a failure kind (e.g. \"compile time limit\")");
  return {false, std::move(kind), std::move(sensors), std::move(cleared)};
}

problem& problem::add_knob(knob k) {
  for (const knob& existing : knobs_)
    if (existing.name() == k.name()) throw error("knob '" + k.name() + "' is declared twice");
  knobs_.push_back(std::move(k));
  return *this;
}

feature problem::add_sensor(std::string name) {
  if (std::find(sensors_.begin(), sensors_.end(), name) != sensors_.end())
    throw error("sensor '" + name + "' is declared twice");
  feature f = feature::sensor(name);
  sensors_.push_back(std::move(name));
  return f;
}

void problem::maximize(feature objective) {
  objective_ = std::move(objective);
  maximizing_ = true;
}

void problem::minimize(feature objective) {
  objective_ = std::move(objective);
  maximizing_ = false;
}

void problem::require(constraint c) {
  if (c.name.empty()) throw error("constraint on '" + c.value.to_string() + "' needs a name");
  constraints_.push_back(std::move(c));
}

void problem::proxy(std::string failure_kind, feature proxy) {
  if (failure_kind.empty()) throw error("proxy '" + proxy.to_string() + "' needs the failure kind it predicts");
  for (const proxy_constraint& existing : proxies_)
    if (existing.failure_kind == failure_kind)
      throw error("failure kind '" + failure_kind + "' already has a proxy ('" + existing.proxy.to_string() + "')");
  proxies_.push_back({std::move(failure_kind), std::move(proxy)});
}

double problem::size() const {
  double n = knobs_.empty() ? 0 : 1;
  for (const knob& k : knobs_) n *= static_cast<double>(k.size());
  return n;
}

}  // namespace sadsl::knobs
