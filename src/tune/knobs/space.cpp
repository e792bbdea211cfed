#include "sadsl/tune/knobs/space.hpp"

#include <algorithm>
#include <cmath>

#include "sadsl/error.hpp"

namespace sadsl::knobs {

namespace {
bool is_power_of_two(long v) { return v >= 1 && (v & (v - 1)) == 0; }

void check_name(const std::string& name) {
  if (name.empty()) throw error("a knob name must not be empty");
}
}  // namespace

knob::knob(std::string name, std::vector<long> values, bool logarithmic)
    : name_(std::move(name)), values_(std::move(values)), logarithmic_(logarithmic) {}

knob knob::range(std::string name, long lo, long hi, long step) {
  check_name(name);
  if (lo > hi)
    throw error("knob '" + name + "': range " + std::to_string(lo) + ".." + std::to_string(hi) + " is empty (lo > hi)");
  if (step < 1) throw error("knob '" + name + "': step must be at least 1, got " + std::to_string(step));
  std::vector<long> values;
  for (long v = lo; v <= hi; v += step) values.push_back(v);
  return knob(std::move(name), std::move(values), false);
}

knob knob::power_of_two(std::string name, long lo, long hi) {
  check_name(name);
  if (!is_power_of_two(lo) || !is_power_of_two(hi) || lo > hi)
    throw error("knob '" + name + "': power-of-two range needs powers of two 1 <= lo <= hi, got " + std::to_string(lo) +
                ".." + std::to_string(hi));
  std::vector<long> values;
  for (long v = lo; v <= hi; v *= 2) values.push_back(v);
  return knob(std::move(name), std::move(values), true);
}

knob knob::enumeration(std::string name, std::vector<std::string> labels) {
  check_name(name);
  if (labels.empty()) throw error("knob '" + name + "': an enumeration needs at least one label");
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (std::find(labels.begin(), labels.begin() + i, labels[i]) != labels.begin() + i)
      throw error("knob '" + name + "': label '" + labels[i] + "' appears twice");
  std::vector<long> positions(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) positions[i] = static_cast<long>(i);
  knob k(std::move(name), std::move(positions), false);
  k.labels_ = std::move(labels);
  return k;
}

knob& knob::scale(double weight) {
  if (!(weight > 0) || !std::isfinite(weight))
    throw error("knob '" + name_ + "': distance scale must be a positive number, got " + std::to_string(weight));
  weight_ = weight;
  return *this;
}

std::string knob::label(std::size_t i) const { return labels_.empty() ? std::to_string(values_[i]) : labels_[i]; }

double knob::coordinate(std::size_t i) const {
  if (values_.size() < 2) return 0;
  // Powers of two and enumerations are spaced by position; ranges by value. Either way the knob
  // spans [0, weight] so that no knob dominates the distance just by its units.
  auto raw = [&](std::size_t j) { return logarithmic_ || is_enumeration() ? double(j) : double(values_[j]); };
  return weight_ * (raw(i) - raw(0)) / (raw(values_.size() - 1) - raw(0));
}

configuration::configuration(knob_list knobs, std::vector<std::uint32_t> settings)
    : knobs_(std::move(knobs)), settings_(std::move(settings)) {
  SADSL_INTERNAL_ASSERT(knobs_ && knobs_->size() == settings_.size(), "configuration does not match its knobs");
  for (std::size_t i = 0; i < settings_.size(); ++i)
    SADSL_INTERNAL_ASSERT(settings_[i] < (*knobs_)[i].size(), "setting out of range for knob " + (*knobs_)[i].name());
}

std::size_t configuration::knob_index(std::string_view name) const {
  for (std::size_t i = 0; i < knobs_->size(); ++i)
    if ((*knobs_)[i].name() == name) return i;
  std::string known;
  for (const knob& k : *knobs_) known += (known.empty() ? "" : ", ") + k.name();
  throw error("configuration has no knob '" + std::string(name) + "' (knobs: " + known + ")");
}

long configuration::operator[](std::string_view name) const {
  const std::size_t i = knob_index(name);
  return (*knobs_)[i].value(settings_[i]);
}

std::string configuration::label(std::string_view name) const {
  const std::size_t i = knob_index(name);
  const knob& k = (*knobs_)[i];
  if (!k.is_enumeration())
    throw error("knob '" + k.name() + "' is not an enumeration; read its value with [\"" + k.name() + "\"]");
  return k.label(settings_[i]);
}

std::string configuration::to_string() const {
  std::string text;
  for (std::size_t i = 0; i < settings_.size(); ++i)
    text += (i ? " " : "") + (*knobs_)[i].name() + "=" + (*knobs_)[i].label(settings_[i]);
  return text;
}

std::vector<double> configuration::coordinates() const {
  std::vector<double> coords(settings_.size());
  for (std::size_t i = 0; i < settings_.size(); ++i) coords[i] = (*knobs_)[i].coordinate(settings_[i]);
  return coords;
}

}  // namespace sadsl::knobs
