#include "emit_dialect.hpp"

#include <cmath>
#include <cstdio>

#include "sadsl/error.hpp"

namespace sadsl::model::emit {

std::string decimal(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  std::string text = buffer;
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

namespace {

std::string index_text(std::size_t i) { return std::to_string(i); }

class scalar final : public dialect {
public:
  std::string constant(double v) const override {
    if (std::isnan(v)) return "__builtin_nan(\"\")";
    if (std::isinf(v)) return v > 0 ? "__builtin_inf()" : "-__builtin_inf()";
    return decimal(v);
  }
  std::string operation(op kind, const std::string& a, const std::string& b) const override {
    switch (kind) {
      case op::add: return a + " + " + b;
      case op::sub: return a + " - " + b;
      case op::mul: return a + " * " + b;
      case op::div: return a + " / " + b;
      case op::floor_div: return "__builtin_floor(" + a + " / " + b + ")";
      case op::ceil_div: return "__builtin_ceil(" + a + " / " + b + ")";
      case op::min: return "(" + b + " < " + a + " ? " + b + " : " + a + ")";  // as the interpreter
      case op::max: return "(" + b + " > " + a + " ? " + b + " : " + a + ")";
      case op::ceil: return "__builtin_ceil(" + a + ")";
      case op::floor: return "__builtin_floor(" + a + ")";
      case op::pow2_divisor: return "sadsl_pow2_divisor(" + a + ", " + b + ")";
      case op::constant: case op::parameter: case op::index: case op::sum: case op::maximum: break;
    }
    SADSL_INTERNAL_ASSERT(false, "operation() on a leaf, a sum or a maximum");
  }
  std::string power_of_two_reciprocal(const std::string& b) const override { return "sadsl_pow2_reciprocal(" + b + ")"; }
  std::string holds(constraint::kind relation, const std::string& lhs, const std::string& rhs) const override {
    switch (relation) {
      case constraint::kind::at_least: return "(" + lhs + " >= " + rhs + ")";
      case constraint::kind::at_most: return "(" + lhs + " <= " + rhs + ")";
      case constraint::kind::power_of_two: return "sadsl_power_of_two(" + lhs + ")";
      case constraint::kind::divides: return "sadsl_divides(" + lhs + ", " + rhs + ")";
    }
    SADSL_INTERNAL_ASSERT(false, "unknown constraint kind");
  }
  std::string both(const std::string& a, const std::string& b) const override { return a + " & " + b; }
  std::string one_if(const std::string& mask) const override { return "(" + mask + ") ? 1.0 : 0.0"; }
  std::string value_type() const override { return "double"; }
  std::string mask_type() const override { return "bool"; }
  std::string all_true() const override { return "true"; }
  std::vector<std::string> load_parameters(std::size_t) const override { return {}; }
  std::string load_parameter(std::size_t i) const override { return "point[" + index_text(i) + "]"; }
  std::string store_parameter(std::size_t i, const std::string& value) const override {
    return "point[" + index_text(i) + "] = " + value + ";";
  }
  std::string store_metric(const std::string& field, const std::string& value) const override {
    return "out[sadsl_" + field + "] = " + value + ";";
  }
  std::string limit(const std::string& field) const override { return "limits->" + field; }
  std::string signature() const override {
    return "inline void sadsl_evaluate(double* point, double* out, const sadsl_limits* limits)";
  }
  std::string core_signature() const override {
    return "__attribute__((SADSL_SHARED)) static void sadsl_core([[maybe_unused]] double* point, double* out, const sadsl_limits* limits, "
           "[[maybe_unused]] const std::uint32_t* counts)";
  }
  std::string load_parameter_at(const std::string& index) const override { return "point[" + index + "]"; }
  std::vector<std::string> sum_open(const std::string& total, const std::string& index, const std::string& lo,
                                    const std::string& hi) const override {
    return {"double " + total + " = 0.0;",
            "if (!(__builtin_isfinite(" + lo + ") && __builtin_isfinite(" + hi + "))) " + total + " = __builtin_nan(\"\");",
            "else for (double " + index + " = " + lo + "; " + index + " <= " + hi + "; " + index + " += 1.0) {"};
  }
  std::vector<std::string> sum_close(const std::string& total, const std::string&, const std::string&, const std::string&,
                                     const std::string& term) const override {
    return {total + " += " + term + ";"};
  }
  std::vector<std::string> maximum_close(const std::string& total, const std::string& term) const override {
    return {"if (" + term + " > " + total + " || " + term + " != " + term + ") " + total + " = " + term + ";"};
  }
  std::string affine_sum_exact(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                               const std::string& m, bool) const override {
    return "sadsl_affine_sum_exact(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m + ")";
  }
  std::string affine_sum(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                         const std::string& m, bool up) const override {
    return "sadsl_affine_sum(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m + (up ? ", true)" : ", false)");
  }
};

}  // namespace

std::vector<std::string> dialect::affine_sums(const std::vector<std::string>&, const std::vector<std::string>&,
                                              const std::string&, const std::string&, const std::string&, bool,
                                              const std::vector<std::string>&) const {
  return {};
}

const dialect& scalar_dialect() {
  static const scalar instance;
  return instance;
}

}  // namespace sadsl::model::emit
