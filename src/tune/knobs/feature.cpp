#include "sadsl/tune/knobs/feature.hpp"

#include <algorithm>
#include <cmath>

#include "sadsl/error.hpp"

namespace sadsl::knobs {

struct feature::node {
  enum class kind { sensor, constant, add, sub, mul, div } what;
  std::string name;  // sensor
  double constant = 0;
  std::shared_ptr<const node> left, right;
};

namespace {
using node = feature::node;

char symbol(node::kind k) {
  switch (k) {
    case node::kind::add:
      return '+';
    case node::kind::sub:
      return '-';
    case node::kind::mul:
      return '*';
    default:
      return '/';
  }
}

// Binding strength, for printing only the parentheses that are needed.
int precedence(const node& n) {
  if (n.what == node::kind::add || n.what == node::kind::sub) return 1;
  if (n.what == node::kind::mul || n.what == node::kind::div) return 2;
  return 3;
}

std::string print(const node& n);

std::string print_operand(const node& operand, int parent, bool right_of_noncommutative) {
  const int p = precedence(operand);
  const bool parens = p < parent || (p == parent && right_of_noncommutative);
  if (!parens) return print(operand);
  std::string text = "(";  // appended, not prepended: gcc 12 warns falsely (-Wrestrict) on "(" + string&&
  text += print(operand);
  return text + ")";
}

std::string print(const node& n) {
  if (n.what == node::kind::sensor) return n.name;
  if (n.what == node::kind::constant) {
    std::string text = std::to_string(n.constant);
    text.erase(text.find_last_not_of('0') + 1);  // "2.500000" -> "2.5", "3.000000" -> "3."
    if (text.back() == '.') text.pop_back();
    return text;
  }
  const bool noncommutative = n.what == node::kind::sub || n.what == node::kind::div;
  return print_operand(*n.left, precedence(n), false) + " " + symbol(n.what) + " " +
         print_operand(*n.right, precedence(n), noncommutative);
}

void collect_sensors(const node& n, std::vector<std::string>& out) {
  if (n.what == node::kind::sensor) {
    if (std::find(out.begin(), out.end(), n.name) == out.end()) out.push_back(n.name);
  } else if (n.left) {
    collect_sensors(*n.left, out);
    collect_sensors(*n.right, out);
  }
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text.empty() ? "(none)" : text;
}
}  // namespace

feature::feature(double constant)
    : root_(std::make_shared<const node>(node{node::kind::constant, {}, constant, nullptr, nullptr})) {}

feature feature::sensor(std::string name) {
  if (name.empty()) throw error("a sensor name must not be empty");
  return feature(std::make_shared<const node>(node{node::kind::sensor, std::move(name), 0, nullptr, nullptr}));
}

namespace {
std::shared_ptr<const node> binary(node::kind k, std::shared_ptr<const node> a, std::shared_ptr<const node> b) {
  return std::make_shared<const node>(node{k, {}, 0, std::move(a), std::move(b)});
}
}  // namespace

feature operator+(const feature& a, const feature& b) { return feature(binary(node::kind::add, a.root_, b.root_)); }
feature operator-(const feature& a, const feature& b) { return feature(binary(node::kind::sub, a.root_, b.root_)); }
feature operator*(const feature& a, const feature& b) { return feature(binary(node::kind::mul, a.root_, b.root_)); }
feature operator/(const feature& a, const feature& b) { return feature(binary(node::kind::div, a.root_, b.root_)); }

std::string feature::to_string() const { return print(*root_); }

std::vector<std::string> feature::sensors() const {
  std::vector<std::string> names;
  collect_sensors(*root_, names);
  return names;
}

bound_feature::bound_feature(const feature& f, const std::vector<std::string>& declared, const std::string& role)
    : text_(f.to_string()) {
  compile(*f.root_, declared, role);
}

void bound_feature::compile(const feature::node& n, const std::vector<std::string>& declared, const std::string& role) {
  switch (n.what) {
    case node::kind::sensor: {
      const auto it = std::find(declared.begin(), declared.end(), n.name);
      if (it == declared.end())
        throw error(role + " reads sensor '" + n.name +
                    "', which is not declared (declared sensors: " + joined(declared) + ")");
      const int index = static_cast<int>(it - declared.begin());
      if (std::find(used_.begin(), used_.end(), index) == used_.end()) used_.push_back(index);
      program_.push_back({op::sensor, index, 0});
      return;
    }
    case node::kind::constant:
      program_.push_back({op::constant, -1, n.constant});
      return;
    default:
      break;
  }
  compile(*n.left, declared, role);
  compile(*n.right, declared, role);
  static constexpr op ops[] = {op::sensor, op::constant, op::add, op::sub, op::mul, op::div};
  program_.push_back({ops[static_cast<int>(n.what)], -1, 0});
}

template <class T, class Leaf>
T bound_feature::run(Leaf leaf) const {
  std::vector<T> stack;
  stack.reserve(program_.size());
  for (const step& s : program_) {
    if (s.kind == op::sensor || s.kind == op::constant) {
      stack.push_back(leaf(s));
      continue;
    }
    SADSL_INTERNAL_ASSERT(stack.size() >= 2, "derived-feature program underflow");
    const T b = stack.back();
    stack.pop_back();
    T& a = stack.back();
    if (s.kind == op::add)
      a = a + b;
    else if (s.kind == op::sub)
      a = a - b;
    else if (s.kind == op::mul)
      a = a * b;
    else
      a = a / b;
  }
  SADSL_INTERNAL_ASSERT(stack.size() == 1,
                        "derived-feature program leaves " + std::to_string(stack.size()) + " values");
  return stack.back();
}

double bound_feature::evaluate(std::span<const double> values) const {
  return run<double>([&](const step& s) { return s.kind == op::constant ? s.constant : values[s.sensor]; });
}

normal bound_feature::evaluate(std::span<const normal> predictions) const {
  return run<normal>(
      [&](const step& s) { return s.kind == op::constant ? exactly(s.constant) : predictions[s.sensor]; });
}

}  // namespace sadsl::knobs
