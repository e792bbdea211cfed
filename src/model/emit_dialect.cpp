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
      case op::constant: case op::parameter: case op::index: case op::sum: break;
    }
    SADSL_INTERNAL_ASSERT(false, "operation() on a leaf or a sum");
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
  std::string affine_sum_exact(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                               const std::string& m) const override {
    return "sadsl_affine_sum_exact(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m + ")";
  }
  std::string affine_sum(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                         const std::string& m, bool up) const override {
    return "sadsl_affine_sum(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m + (up ? ", true)" : ", false)");
  }
};

// Four points at once, as GCC / Clang vector extensions (the prelude's sadsl_v4d, masks
// sadsl_v4i). Lane l's parameters are row l of `points` (`stride` doubles each; a stride of 0
// puts one point in all four lanes); its parameter i is gathered straight from there, not from a
// transposed copy: a vector load of four scalar stores cannot be forwarded from the store buffer
// and stalls. Metric k goes to out[4 * k + l].
class avx2 final : public dialect {
public:
  std::string constant(double v) const override { return "sadsl_splat(" + scalar_dialect().constant(v) + ")"; }
  std::string operation(op kind, const std::string& a, const std::string& b) const override {
    switch (kind) {
      case op::add: return "(" + a + " + " + b + ")";
      case op::sub: return "(" + a + " - " + b + ")";
      case op::mul: return "(" + a + " * " + b + ")";
      case op::div: return "(" + a + " / " + b + ")";
      case op::floor_div: return operation(op::floor, operation(op::div, a, b), "");
      case op::ceil_div: return operation(op::ceil, operation(op::div, a, b), "");
      // sadsl_min(x, y) = x < y ? x : y, exactly the scalar (b < a ? b : a).
      case op::min: return "sadsl_min(" + b + ", " + a + ")";
      case op::max: return "sadsl_max(" + b + ", " + a + ")";
      case op::ceil: return "sadsl_ceil(" + a + ")";
      case op::floor: return "sadsl_floor(" + a + ")";
      case op::pow2_divisor: return "sadsl_pow2_divisor_avx2(" + a + ", " + b + ")";
      case op::constant: case op::parameter: case op::index: case op::sum: break;
    }
    SADSL_INTERNAL_ASSERT(false, "operation() on a leaf or a sum");
  }
  std::string power_of_two_reciprocal(const std::string& b) const override {
    return "sadsl_pow2_reciprocal_avx2(" + b + ")";
  }
  std::string holds(constraint::kind relation, const std::string& lhs, const std::string& rhs) const override {
    switch (relation) {
      case constraint::kind::at_least: return "(" + lhs + " >= " + rhs + ")";
      case constraint::kind::at_most: return "(" + lhs + " <= " + rhs + ")";
      case constraint::kind::power_of_two: return "sadsl_power_of_two_avx2(" + lhs + ")";
      case constraint::kind::divides: return "sadsl_divides_avx2(" + lhs + ", " + rhs + ")";
    }
    SADSL_INTERNAL_ASSERT(false, "unknown constraint kind");
  }
  std::string both(const std::string& a, const std::string& b) const override { return "(" + a + " & " + b + ")"; }
  std::string one_if(const std::string& mask) const override { return "sadsl_one_if(" + mask + ")"; }
  std::string value_type() const override { return "sadsl_v4d"; }
  std::string mask_type() const override { return "sadsl_v4i"; }
  std::string all_true() const override { return "sadsl_v4i{-1, -1, -1, -1}"; }
  std::string load_parameter(std::size_t i) const override {
    return "sadsl_gather(points + " + index_text(i) + ", stride)";
  }
  std::string store_parameter(std::size_t i, const std::string& value) const override {
    return "sadsl_scatter(points + " + index_text(i) + ", stride, " + value + ");";
  }
  std::string store_metric(const std::string& field, const std::string& value) const override {
    return "sadsl_store(out + 4 * sadsl_" + field + ", " + value + ");";
  }
  std::string limit(const std::string& field) const override { return "sadsl_splat(limits->" + field + ")"; }
  std::string signature() const override {
    return "__attribute__((target(\"avx2\"))) inline void sadsl_evaluate_avx2(double* points, std::size_t stride, "
           "double* out, const sadsl_limits* limits)";
  }
  // One loop for the four lanes: each lane's index starts at its own lower bound and steps by 1.0,
  // as the scalar loop's does, and the lane adds a term while its index is within its own bound
  // (else +0.0, which leaves its total as it is), so each lane adds the terms the scalar code adds,
  // in the same order, for any bounds. The loop ends when no lane is within its bound. A lane
  // whose bounds are not finite is NaN.
  std::vector<std::string> sum_open(const std::string& total, const std::string& index, const std::string& lo,
                                    const std::string& hi) const override {
    std::string ok = total + "_ok", on = total + "_on";
    return {"const sadsl_v4i " + ok + " = ((" + lo + " - " + lo + ") == sadsl_splat(0.0)) & ((" + hi + " - " + hi +
                ") == sadsl_splat(0.0));",
            "sadsl_v4d " + total + " = (sadsl_v4d)((sadsl_v4i)sadsl_splat(__builtin_nan(\"\")) & ~" + ok + ");",
            "for (sadsl_v4d " + index + " = " + lo + ";; " + index + " = " + index + " + sadsl_splat(1.0)) {",
            "  const sadsl_v4i " + on + " = " + ok + " & (" + index + " <= " + hi + ");",
            "  if (!(" + on + "[0] | " + on + "[1] | " + on + "[2] | " + on + "[3])) break;"};
  }
  std::vector<std::string> sum_close(const std::string& total, const std::string&, const std::string&,
                                     const std::string&, const std::string& term) const override {
    return {total + " = " + total + " + (sadsl_v4d)(" + total + "_on & (sadsl_v4i)" + term + ");"};
  }
  std::string affine_sum_exact(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                               const std::string& m) const override {
    return "sadsl_affine_sum_exact_avx2(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m + ")";
  }
  std::string affine_sum(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                         const std::string& m, bool up) const override {
    return "sadsl_affine_sum_avx2(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m + (up ? ", true)" : ", false)");
  }
};

}  // namespace

const dialect& scalar_dialect() {
  static const scalar instance;
  return instance;
}

const dialect& avx2_dialect() {
  static const avx2 instance;
  return instance;
}

}  // namespace sadsl::model::emit
