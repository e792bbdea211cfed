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
    if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(v)) return v > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
    return decimal(v);
  }
  std::string operation(op kind, const std::string& a, const std::string& b) const override {
    switch (kind) {
      case op::add: return a + " + " + b;
      case op::sub: return a + " - " + b;
      case op::mul: return a + " * " + b;
      case op::div: return a + " / " + b;
      case op::floor_div: return "std::floor(" + a + " / " + b + ")";
      case op::ceil_div: return "std::ceil(" + a + " / " + b + ")";
      case op::min: return "(" + b + " < " + a + " ? " + b + " : " + a + ")";  // as the interpreter
      case op::max: return "(" + b + " > " + a + " ? " + b + " : " + a + ")";
      case op::ceil: return "std::ceil(" + a + ")";
      case op::floor: return "std::floor(" + a + ")";
      case op::constant: case op::parameter: break;
    }
    SADSL_INTERNAL_ASSERT(false, "operation() on a leaf");
  }
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
};

// Four points at once; parameter i of lane l is in[4 * i + l], metric k is out[4 * k + l].
class avx2 final : public dialect {
public:
  std::string constant(double v) const override { return "_mm256_set1_pd(" + scalar_dialect().constant(v) + ")"; }
  std::string operation(op kind, const std::string& a, const std::string& b) const override {
    switch (kind) {
      case op::add: return "_mm256_add_pd(" + a + ", " + b + ")";
      case op::sub: return "_mm256_sub_pd(" + a + ", " + b + ")";
      case op::mul: return "_mm256_mul_pd(" + a + ", " + b + ")";
      case op::div: return "_mm256_div_pd(" + a + ", " + b + ")";
      case op::floor_div: return operation(op::floor, operation(op::div, a, b), "");
      case op::ceil_div: return operation(op::ceil, operation(op::div, a, b), "");
      // min_pd(x, y) = x < y ? x : y, exactly the scalar (b < a ? b : a).
      case op::min: return "_mm256_min_pd(" + b + ", " + a + ")";
      case op::max: return "_mm256_max_pd(" + b + ", " + a + ")";
      case op::ceil: return "_mm256_round_pd(" + a + ", _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)";
      case op::floor: return "_mm256_round_pd(" + a + ", _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)";
      case op::constant: case op::parameter: break;
    }
    SADSL_INTERNAL_ASSERT(false, "operation() on a leaf");
  }
  std::string holds(constraint::kind relation, const std::string& lhs, const std::string& rhs) const override {
    switch (relation) {
      case constraint::kind::at_least: return "_mm256_cmp_pd(" + lhs + ", " + rhs + ", _CMP_GE_OQ)";
      case constraint::kind::at_most: return "_mm256_cmp_pd(" + lhs + ", " + rhs + ", _CMP_LE_OQ)";
      case constraint::kind::power_of_two: return "sadsl_power_of_two_avx2(" + lhs + ")";
      case constraint::kind::divides: return "sadsl_divides_avx2(" + lhs + ", " + rhs + ")";
    }
    SADSL_INTERNAL_ASSERT(false, "unknown constraint kind");
  }
  std::string both(const std::string& a, const std::string& b) const override {
    return "_mm256_and_pd(" + a + ", " + b + ")";
  }
  std::string one_if(const std::string& mask) const override { return "_mm256_and_pd(" + mask + ", _mm256_set1_pd(1.0))"; }
  std::string value_type() const override { return "__m256d"; }
  std::string mask_type() const override { return "__m256d"; }
  std::string all_true() const override { return "_mm256_castsi256_pd(_mm256_set1_epi64x(-1))"; }
  std::string load_parameter(std::size_t i) const override { return "_mm256_loadu_pd(in + " + index_text(4 * i) + ")"; }
  std::string store_parameter(std::size_t i, const std::string& value) const override {
    return "_mm256_storeu_pd(in + " + index_text(4 * i) + ", " + value + ");";
  }
  std::string store_metric(const std::string& field, const std::string& value) const override {
    return "_mm256_storeu_pd(out + 4 * sadsl_" + field + ", " + value + ");";
  }
  std::string limit(const std::string& field) const override { return "_mm256_set1_pd(limits->" + field + ")"; }
  std::string signature() const override {
    return "__attribute__((target(\"avx2\"))) inline void sadsl_evaluate_avx2(double* in, double* out, "
           "const sadsl_limits* limits)";
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
