// Fuzz target: the model expression parser (the bounds and sizes of descriptors). An accepted
// expression prints, evaluates and lists its parameters; when its text is in the descriptors'
// syntax, it parses back to the same expression: the same text again and the same value at a
// point. (to_string writes floor and ceil division as floor_div(a, b) and ceil_div(a, b) and
// non-finite constants as nan and inf, which descriptors cannot spell; min and max of n arguments
// print as n - 1 nested calls, which may nest deeper than the parser's 200 levels.)
#include <algorithm>
#include <array>
#include <cstdio>
#include <cmath>

#include "fuzz_support.hpp"
#include "sadsl/model/expr.hpp"

using namespace sadsl;

namespace {

// The names of the gemm and cnn descriptors, with values at which to evaluate.
constexpr std::size_t count = 24;
const std::array<const char*, count> names = {"i", "j", "k", "i_t1", "i_t2", "j_t1", "j_t2", "k_t1",
                                              "k_t2", "c", "c_t1", "c_t2", "o", "o_t1", "o_t2", "r",
                                              "r_t1", "r_t2", "p", "q", "p9", "p10", "p11", "p12"};
const std::array<double, count> values = {1024, 1000, 7, 129, 3, 205, 41, 64, 8, 56, 8, 4,
                                          64, 16, 4, 56, 7, 1, 3, 3, 8, 4, 2, 16};

const model::expr* lookup(std::string_view name) {
  static const std::array<model::expr, count> params = [] {
    std::array<model::expr, count> p;
    for (std::size_t i = 0; i < count; ++i) p[i] = model::expr::parameter(i, names[i]);
    return p;
  }();
  for (std::size_t i = 0; i < count; ++i)
    if (name == names[i]) return &params[i];
  return nullptr;
}

int nesting(const std::string& text) {
  int depth = 0, deepest = 0;
  for (char c : text) deepest = std::max(deepest, depth += c == '(' ? 1 : c == ')' ? -1 : 0);
  return deepest;
}

// Equal values; a value divided by zero somewhere (not finite) may differ in sign, as -0 prints as 0.
bool same_value(double a, double b) { return a == b || !std::isfinite(a) || !std::isfinite(b); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text = fuzz::text_of(data, size);
  model::expr e;
  if (fuzz::refused([&] { e = model::parse_expression(text, lookup); })) return 0;
  std::string printed = model::to_string(e);
  double value = model::evaluate(e, values);
  model::parameters_of(e);
  for (const char* outside : {"floor_div", "ceil_div", "nan", "inf"})
    if (printed.find(outside) != std::string::npos) return 0;
  if (nesting(printed) > 200) return 0;
  model::expr again;
  bool reparsed = !fuzz::refused([&] { again = model::parse_expression(printed, lookup); });
  if (!reparsed || model::to_string(again) != printed || !same_value(model::evaluate(again, values), value))
    std::fprintf(stderr, "== fuzz: \"%s\" printed as \"%s\"\n", text.c_str(), printed.c_str());
  fuzz::fuzz_check(reparsed, "a printed expression parses");
  fuzz::fuzz_check(model::to_string(again) == printed, "printing a reparsed expression gives the same text");
  fuzz::fuzz_check(same_value(model::evaluate(again, values), value), "a reparsed expression has the same value");
  return 0;
}
