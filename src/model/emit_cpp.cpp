// Emission of a design model as straight-line C++ (common subexpressions computed once).
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"

namespace sadsl::model {
namespace {

std::string literal(double v) {
  if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(v)) return v > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  std::string text = buffer;
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

// "p3", "t12": names of locals in the generated code.
std::string numbered(char prefix, std::size_t n) {
  std::string name(1, prefix);
  name += std::to_string(n);
  return name;
}

// Assigns each distinct subexpression a local `const double tN` in first-use order.
class linearizer {
public:
  std::string operand(const expr& e) {
    if (e.kind() == op::constant) return literal(e.constant_value());
    if (e.kind() == op::parameter) return numbered('p', e.parameter_index());
    if (auto found = by_identity_.find(e.identity()); found != by_identity_.end()) return found->second;
    for (const auto& [other, name] : by_hash_[e.hash()])
      if (other.same_as(e)) return by_identity_[e.identity()] = name;
    std::string a = operand(e.lhs());
    std::string b = is_binary(e.kind()) ? operand(e.rhs()) : "";
    std::string name = numbered('t', next_++);
    code_ += "  const double " + name + " = " + operation(e.kind(), a, b) + ";\n";
    by_hash_[e.hash()].emplace_back(e, name);
    return by_identity_[e.identity()] = name;
  }

  void line(const std::string& text) { code_ += "  " + text + "\n"; }
  const std::string& code() const { return code_; }

private:
  static std::string operation(op kind, const std::string& a, const std::string& b) {
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

  std::unordered_map<const void*, std::string> by_identity_;
  std::unordered_map<std::size_t, std::vector<std::pair<expr, std::string>>> by_hash_;
  std::string code_;
  std::size_t next_ = 0;
};

// Largest parameter index `e` reads, or -1.
long highest_parameter(const expr& e) {
  if (e.kind() == op::constant) return -1;
  if (e.kind() == op::parameter) return static_cast<long>(e.parameter_index());
  long a = highest_parameter(e.lhs());
  return is_binary(e.kind()) ? std::max(a, highest_parameter(e.rhs())) : a;
}

void emit_inference(linearizer& out, const design_model& model) {
  for (std::size_t i = 0; i < model.params.size(); ++i) {
    const auto& inferred = model.params[i].inferred;
    if (!inferred) continue;
    if (highest_parameter(inferred->lower) >= static_cast<long>(i) || highest_parameter(inferred->upper) >= static_cast<long>(i))
      throw error("model \"" + model.name + "\": inferred parameter \"" + model.params[i].name +
                  "\" depends on itself or on a parameter after it");
    std::string lower = out.operand(inferred->lower);
    std::string upper = out.operand(inferred->upper);
    std::string p = numbered('p', i);
    out.line("// " + model.params[i].name + ": largest multiple of the lower bound dividing the upper bound");
    out.line("legal = legal & (" + lower + " >= 1.0) & (" + upper + " >= " + lower + ") & sadsl_divides(" + lower + ", " + upper + ");");
    out.line(p + " = " + upper + ";");
    out.line("point[" + std::to_string(i) + "] = " + p + ";");
  }
}

void emit_constraints(linearizer& out, const design_model& model) {
  for (const constraint& c : model.constraints) {
    std::string lhs = out.operand(c.lhs);
    std::string test;
    switch (c.relation) {
      case constraint::kind::at_least: test = "(" + lhs + " >= " + out.operand(c.rhs) + ")"; break;
      case constraint::kind::at_most: test = "(" + lhs + " <= " + out.operand(c.rhs) + ")"; break;
      case constraint::kind::power_of_two: test = "sadsl_power_of_two(" + lhs + ")"; break;
      case constraint::kind::divides: test = "sadsl_divides(" + lhs + ", " + out.operand(c.rhs) + ")"; break;
    }
    out.line("legal = legal & " + test + ";  // " + c.description);
  }
}

void emit_metrics(linearizer& out, const design_model& model) {
  metric_expressions m = metrics_of(model);
  std::pair<const char*, const expr*> fields[] = {
      {"latency_prologue", &m.latency_prologue}, {"latency_main", &m.latency_main},
      {"latency_epilogue", &m.latency_epilogue}, {"latency", &m.latency}, {"dsp", &m.dsp},
      {"bram18k", &m.bram18k}, {"uram", &m.uram}, {"lut", &m.lut}, {"offchip_bytes", &m.offchip_bytes}};
  for (auto [field, value] : fields) out.line("out->" + std::string(field) + " = " + out.operand(*value) + ";");
  out.line("out->legal = legal ? 1.0 : 0.0;");
  out.line("const bool fits = (out->dsp <= limits->dsp) & (out->bram18k <= limits->bram18k) & (out->uram <= limits->uram);");
  out.line("out->feasible = (legal & fits) ? 1.0 : 0.0;");
}

const char* const prelude = R"(#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

// Mirrors sadsl::model::metrics and sadsl::model::device_limits (ABI version 1).
struct sadsl_metrics {
  double latency, latency_prologue, latency_main, latency_epilogue;
  double dsp, bram18k, uram, lut, offchip_bytes, legal, feasible;
};
struct sadsl_limits {
  double dsp, bram18k, uram;
};

// Odyssey's power-of-two test (log2 is an integer): positive, finite, zero mantissa bits.
inline bool sadsl_power_of_two(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (x > 0) & (x <= std::numeric_limits<double>::max()) & ((bits & 0xFFFFFFFFFFFFFull) == 0);
}

// b divides a (exact for integers below 2^53).
inline bool sadsl_divides(double b, double a) {
  const double q = a / b;
  return (b != 0) & (q == std::floor(q));
}

)";

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

// The evaluation function; everything else in the source is derived from it and the hash.
std::string evaluation_code(const design_model& model) {
  linearizer out;
  for (std::size_t i = 0; i < model.params.size(); ++i)
    out.line("[[maybe_unused]] double p" + std::to_string(i) + " = point[" + std::to_string(i) + "];  // " + escaped(model.params[i].name));
  out.line("bool legal = true;");
  emit_inference(out, model);
  emit_constraints(out, model);
  emit_metrics(out, model);
  return "inline void sadsl_evaluate(double* point, sadsl_metrics* out, const sadsl_limits* limits) {\n" +
         out.code() + "}\n";
}

std::string hex_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a, 64 bit
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

std::string exports(const design_model& model, const std::string& hash) {
  std::string symbol = "sadsl_model_" + hash;
  std::string n = std::to_string(model.params.size());
  return "\n}  // namespace\n\nextern \"C\" {\n\n"
         "static void " + symbol + "_point(double* point, void* out, const void* limits) {\n"
         "  sadsl_evaluate(point, static_cast<sadsl_metrics*>(out), static_cast<const sadsl_limits*>(limits));\n}\n\n"
         "static void " + symbol + "_batch(std::size_t count, double* points, void* out, const void* limits) {\n"
         "  sadsl_metrics* metrics = static_cast<sadsl_metrics*>(out);\n"
         "  const sadsl_limits* device = static_cast<const sadsl_limits*>(limits);\n"
         "  for (std::size_t i = 0; i < count; ++i) sadsl_evaluate(points + i * " + n + ", metrics + i, device);\n}\n\n"
         "struct " + symbol + "_abi_t {\n  unsigned version, parameter_count;\n  const char* model_name;\n"
         "  const char* model_hash;\n  void (*point)(double*, void*, const void*);\n"
         "  void (*batch)(std::size_t, double*, void*, const void*);\n};\n\n"
         "const void* " + symbol + "_abi() {\n"
         "  static const " + symbol + "_abi_t abi = {1, " + n + ", \"" + escaped(model.name) + "\", \"" + hash + "\", " +
         symbol + "_point, " + symbol + "_batch};\n  return &abi;\n}\n\n}  // extern \"C\"\n";
}

}  // namespace

std::string model_hash(const design_model& model) { return hex_hash(evaluation_code(model)); }

std::string emit_cpp(const design_model& model, const emit_options& options) {
  std::string code = evaluation_code(model);
  std::string hash = hex_hash(code);
  std::string source = "// Generated by sadsl from model \"" + escaped(model.name) + "\" (hash " + hash + "). Do not edit.\n" +
                       prelude + code + exports(model, hash);
  if (options.register_ahead_of_time)
    source += "\nextern \"C\" int sadsl_register_ahead_of_time_model(const void* abi);\n"
              "[[maybe_unused]] static const int sadsl_registered_" + hash + " = sadsl_register_ahead_of_time_model(sadsl_model_" +
              hash + "_abi());\n";
  return source;
}

}  // namespace sadsl::model
