#include "c_values.hpp"

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::codegen_detail {

std::string c_type(elem_type t) { return std::string(type_name(t)); }

std::string compute_type(elem_type t) {
  if (is_float(t)) return c_type(t);
  return t == elem_type::u32 ? "uint32_t" : "int64_t";
}

namespace {

class value_printer {
public:
  explicit value_printer(const read_text& reads) : reads_(reads) {}

  // e computed in the compute type p (the evaluator's eval<P>).
  std::string print(const expr_node& e, const std::string& p) {
    switch (e.op) {
      case expr_op::constant:
        return p == "float" || p == "double" ? fmt::format("(({}){:.17g})", p, e.fvalue)
                                                                 : fmt::format("(({}){}LL)", p, e.ivalue);
      case expr_op::read: {
        std::string text = reads_(e, next_++);
        std::string own = compute_type(e.type);
        return own == p ? fmt::format("(({}){})", p, text) : fmt::format("(({})({}){})", p, own, text);
      }
      case expr_op::cast: {
        const expr_node& arg = *e.args[0];
        std::string inner = print(arg, compute_type(arg.type));
        return fmt::format("(({})({})({}){})", p, compute_type(e.type), c_type(e.type), inner);
      }
      case expr_op::neg: return fmt::format("(({})0 - {})", p, print(*e.args[0], p));
      default: break;
    }
    std::string a = print(*e.args[0], p), b = print(*e.args[1], p);
    switch (e.op) {
      case expr_op::add: return fmt::format("({} + {})", a, b);
      case expr_op::sub: return fmt::format("({} - {})", a, b);
      case expr_op::mul: return fmt::format("({} * {})", a, b);
      case expr_op::div: return fmt::format("({} / {})", a, b);
      case expr_op::min: return fmt::format("sadsl_vmin<{}>({}, {})", p, a, b);
      case expr_op::max: return fmt::format("sadsl_vmax<{}>({}, {})", p, a, b);
      default: break;
    }
    SADSL_INTERNAL_ASSERT(false, "codegen: unexpected value expression");
  }

private:
  const read_text& reads_;
  int next_ = 0;
};

}  // namespace

std::string c_value(const expr_node& value, elem_type stored, const read_text& reads) {
  value_printer p(reads);
  return fmt::format("({})({})", c_type(stored), p.print(value, compute_type(stored)));
}

}  // namespace sadsl::codegen_detail
