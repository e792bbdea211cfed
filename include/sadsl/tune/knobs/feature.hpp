#pragma once
// Features: sensors (named values an evaluation measures) and derived features built from them
// with + - * / and constants, e.g. `sensor("ops") / (sensor("compute") + sensor("drain"))`.
// The search predicts every sensor separately and combines the predictions with normal arithmetic
// (paper 004 section 6), which follows each part's own trend better than a regression on the total.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sadsl/tune/knobs/normal.hpp"

namespace sadsl::knobs {

class feature {
 public:
  /// A constant (implicit, so `2.0 * sensor("t")` reads naturally).
  feature(double constant);
  /// The sensor called `name`; it must be declared with problem::add_sensor before a search.
  static feature sensor(std::string name);

  friend feature operator+(const feature& a, const feature& b);
  friend feature operator-(const feature& a, const feature& b);
  friend feature operator*(const feature& a, const feature& b);
  friend feature operator/(const feature& a, const feature& b);

  /// Infix form, e.g. "ops / (compute + drain)"; used in error messages and reports.
  std::string to_string() const;
  /// The sensor names this feature reads, in first-use order, without repeats.
  std::vector<std::string> sensors() const;

  struct node;  // expression node (defined in feature.cpp)

 private:
  explicit feature(std::shared_ptr<const node> root) : root_(std::move(root)) {}
  std::shared_ptr<const node> root_;
  friend class bound_feature;
};

/// Shorthand for feature::sensor.
inline feature sensor(std::string name) { return feature::sensor(std::move(name)); }

/// A feature whose sensor names are resolved to indices in a list of declared sensors: a postfix
/// program evaluated on measured values or on predictions.
class bound_feature {
 public:
  /// Throws sadsl::error naming `role` (e.g. "objective 'ops / t'") if the feature reads an undeclared sensor.
  bound_feature(const feature& f, const std::vector<std::string>& declared_sensors, const std::string& role);

  /// On measured values; NaN if a sensor it reads is NaN (not measured).
  double evaluate(std::span<const double> sensor_values) const;
  /// On predictions of the sensors.
  normal evaluate(std::span<const normal> sensor_predictions) const;
  /// The indices of the sensors it reads.
  const std::vector<int>& sensor_indices() const { return used_; }
  const std::string& text() const { return text_; }

 private:
  enum class op { sensor, constant, add, sub, mul, div };
  struct step {
    op kind;
    int sensor = -1;
    double constant = 0;
  };
  template <class T, class Leaf>
  T run(Leaf leaf) const;
  void compile(const feature::node& n, const std::vector<std::string>& declared, const std::string& role);

  std::vector<step> program_;
  std::vector<int> used_;
  std::string text_;
};

}  // namespace sadsl::knobs
