#pragma once
// Tuning knobs and configurations. A knob is an integer range (with a step), a power-of-two range
// or an enumeration; a configuration picks one setting of every knob. Distances between settings
// (paper 004 section 5.1.1) use a per-knob coordinate: the value for ranges, the exponent for
// powers of two, the position for enumerations; each knob's coordinates are normalised to span 1
// and then multiplied by the knob's weight (`scale`), so the user can say which knob matters more.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sadsl::knobs {

class knob {
 public:
  /// lo, lo+step, ..., up to hi. Throws sadsl::error if lo > hi or step < 1.
  static knob range(std::string name, long lo, long hi, long step = 1);
  /// lo, 2lo, 4lo, ..., hi; lo and hi must be powers of two with 1 <= lo <= hi.
  static knob power_of_two(std::string name, long lo, long hi);
  /// Named alternatives, e.g. {"row-major", "column-major"}; at least one, no repeats.
  static knob enumeration(std::string name, std::vector<std::string> labels);

  /// Distance weight of this knob (default 1); must be > 0.
  knob& scale(double weight);

  const std::string& name() const { return name_; }
  std::size_t size() const { return values_.size(); }
  bool is_enumeration() const { return !labels_.empty(); }
  /// The integer value of setting i (for enumerations: i).
  long value(std::size_t i) const { return values_[i]; }
  /// The label of setting i of an enumeration (for other knobs: the value as text).
  std::string label(std::size_t i) const;
  /// The scaled coordinate of setting i used by distances.
  double coordinate(std::size_t i) const;

 private:
  knob(std::string name, std::vector<long> values, bool logarithmic);
  std::string name_;
  std::vector<long> values_;
  std::vector<std::string> labels_;
  bool logarithmic_ = false;
  double weight_ = 1;
};

/// The knobs of a problem, shared by every configuration of a search.
using knob_list = std::shared_ptr<const std::vector<knob>>;

/// One setting of every knob, stored as setting indices.
class configuration {
 public:
  configuration(knob_list knobs, std::vector<std::uint32_t> settings);

  /// The value of the knob called `name` (for an enumeration: the position of its label).
  /// Throws sadsl::error for an unknown knob name.
  long operator[](std::string_view name) const;
  /// The label of the enumeration knob called `name`; throws sadsl::error if it is not one.
  std::string label(std::string_view name) const;
  /// "banks=8 accesses=4 layout=row".
  std::string to_string() const;
  /// The scaled coordinates (one per knob) used by the regression.
  std::vector<double> coordinates() const;

  const std::vector<std::uint32_t>& settings() const { return settings_; }
  const std::vector<knob>& knobs() const { return *knobs_; }
  bool operator==(const configuration& other) const { return settings_ == other.settings_; }

 private:
  std::size_t knob_index(std::string_view name) const;
  knob_list knobs_;
  std::vector<std::uint32_t> settings_;
};

}  // namespace sadsl::knobs
