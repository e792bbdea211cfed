#pragma once
// A tuning problem: knobs, sensors, the objective and the constraints (paper 004 section 2), plus
// what an evaluation of one configuration returns.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/tune/knobs/feature.hpp"
#include "sadsl/tune/knobs/space.hpp"

namespace sadsl::knobs {

/// `value <= limit` or `value >= limit`; a test whose measured value breaks it fails with kind `name`.
struct constraint {
  feature value;
  double limit;
  bool at_most;      // true: value <= limit; false: value >= limit
  std::string name;  // failure kind; defaults to the constraint's text, e.g. "energy <= 5"
};
constraint operator<=(const feature& value, double limit);
constraint operator>=(const feature& value, double limit);

/// A failure without a measurement of its cause (a compile-time limit, an out-of-memory abort) is
/// predicted through a proxy feature that is measured in passing and failing tests alike
/// (paper 004 section 4.1): a candidate passes with P(proxy < cutoff), the cutoff learned from the
/// proxy values of the tests that failed with `failure_kind` and of those that got past it.
struct proxy_constraint {
  std::string failure_kind;
  feature proxy;
};

/// What evaluating one configuration produced.
struct outcome {
  bool passed = false;
  std::string failure_kind;               // empty if passed
  std::map<std::string, double> sensors;  // measured values (a failure may still report some)
  std::vector<std::string> cleared;       // failure kinds a failed test is known to have got past

  static outcome pass(std::map<std::string, double> sensors);
  static outcome fail(std::string kind, std::map<std::string, double> sensors = {},
                      std::vector<std::string> cleared = {});
};

class problem {
 public:
  /// Adds a knob; throws sadsl::error if its name is taken.
  problem& add_knob(knob k);
  /// Declares a sensor and returns it as a feature; throws sadsl::error on a repeated name.
  feature add_sensor(std::string name);
  void maximize(feature objective);
  void minimize(feature objective);
  /// A constraint on a measured (or derived) feature; a test that breaks it fails.
  void require(constraint c);
  /// A proxy constraint for failures of `failure_kind` that leave no measurement of their cause.
  void proxy(std::string failure_kind, feature proxy);

  const std::vector<knob>& knobs() const { return knobs_; }
  const std::vector<std::string>& sensors() const { return sensors_; }
  const std::optional<feature>& objective() const { return objective_; }
  bool maximizing() const { return maximizing_; }
  const std::vector<constraint>& constraints() const { return constraints_; }
  const std::vector<proxy_constraint>& proxies() const { return proxies_; }
  /// The number of configurations (as a double: it can exceed 2^64).
  double size() const;

 private:
  std::vector<knob> knobs_;
  std::vector<std::string> sensors_;
  std::optional<feature> objective_;
  bool maximizing_ = true;
  std::vector<constraint> constraints_;
  std::vector<proxy_constraint> proxies_;
};

}  // namespace sadsl::knobs
