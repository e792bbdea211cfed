#include "sadsl/dsl/expr.hpp"

#include <fmt/format.h>

#include "sadsl/dsl/kernel.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

expr_ptr make_constant(elem_type t, double f, int64_t i) {
  auto n = std::make_shared<expr_node>();
  n->op = expr_op::constant;
  n->type = t;
  n->literal = true;
  n->fvalue = is_float(t) ? f : 0;
  n->ivalue = is_float(t) ? 0 : i;
  return n;
}

// Rank of a literal type when two literals meet: the result is the wider one.
int literal_rank(elem_type t) { return t == elem_type::f64 ? 2 : t == elem_type::f32 ? 1 : 0; }

const expr_node* first_read(const expr_node& e) {
  if (e.op == expr_op::read) return &e;
  for (const auto& a : e.args)
    if (const auto* r = first_read(*a)) return r;
  return nullptr;
}

[[noreturn]] void throw_mixed(const expr& a, const expr& b, const char* op) {
  std::string msg = fmt::format("mixing element types {} and {} without a cast in ({}) {} ({}); use cast<T>(...)",
                                type_name(a.type()), type_name(b.type()), a.str(), op, b.str());
  const expr_node* r = first_read(*a.node());
  if (!r) r = first_read(*b.node());
  if (r) throw error(msg, r->where);
  throw error(msg);
}

expr combine(expr_op op, const char* text, const expr& a, const expr& b) {
  elem_type t;
  if (a.is_literal() && b.is_literal())
    t = literal_rank(a.type()) >= literal_rank(b.type()) ? a.type() : b.type();
  else if (a.is_literal())
    t = b.type();
  else if (b.is_literal())
    t = a.type();
  else if (a.type() == b.type())
    t = a.type();
  else
    throw_mixed(a, b, text);
  auto n = std::make_shared<expr_node>();
  n->op = op;
  n->type = t;
  n->literal = a.is_literal() && b.is_literal();
  n->args = {with_type(a.node(), t), with_type(b.node(), t)};
  return expr(std::move(n));
}

bool is_binary(expr_op op) {
  return op == expr_op::add || op == expr_op::sub || op == expr_op::mul || op == expr_op::div;
}

int precedence(expr_op op) {
  switch (op) {
    case expr_op::add: case expr_op::sub: return 1;
    case expr_op::mul: case expr_op::div: return 2;
    default: return 3;
  }
}

std::string constant_text(const expr_node& e) {
  if (!is_float(e.type)) return std::to_string(e.ivalue);
  std::string s = fmt::format("{}", e.fvalue);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return e.type == elem_type::f32 ? s + "f" : s;
}

}  // namespace

expr_ptr expr::literal(elem_type t, double f, int64_t i) { return make_constant(t, f, i); }

expr read_of(std::shared_ptr<const detail::tensor_node> t, std::vector<affine> index, std::source_location where) {
  auto n = std::make_shared<expr_node>();
  n->op = expr_op::read;
  n->type = t->type;
  n->tensor = std::move(t);
  n->index = std::move(index);
  n->where = where;
  return expr(std::move(n));
}

std::string expr::str() const { return to_string(*node_); }

expr_ptr with_type(const expr_ptr& e, elem_type t) {
  if (!e->literal || e->type == t) return e;
  if (e->op == expr_op::constant) {
    double f = is_float(e->type) ? e->fvalue : static_cast<double>(e->ivalue);
    int64_t i = is_float(e->type) ? static_cast<int64_t>(e->fvalue) : e->ivalue;
    auto n = make_constant(t, f, i);
    return n;
  }
  auto n = std::make_shared<expr_node>(*e);
  n->type = t;
  for (auto& a : n->args) a = with_type(a, t);
  return n;
}

expr operator+(const expr& a, const expr& b) { return combine(expr_op::add, "+", a, b); }
expr operator-(const expr& a, const expr& b) { return combine(expr_op::sub, "-", a, b); }
expr operator*(const expr& a, const expr& b) { return combine(expr_op::mul, "*", a, b); }
expr operator/(const expr& a, const expr& b) { return combine(expr_op::div, "/", a, b); }
expr min(const expr& a, const expr& b) { return combine(expr_op::min, "min", a, b); }
expr max(const expr& a, const expr& b) { return combine(expr_op::max, "max", a, b); }

expr operator-(const expr& a) {
  auto n = std::make_shared<expr_node>();
  n->op = expr_op::neg;
  n->type = a.type();
  n->literal = a.is_literal();
  n->args = {a.node()};
  return expr(std::move(n));
}

expr cast(elem_type t, const expr& e) {
  if (e.is_literal()) return expr(with_type(e.node(), t));
  auto n = std::make_shared<expr_node>();
  n->op = expr_op::cast;
  n->type = t;
  n->args = {e.node()};
  return expr(std::move(n));
}

std::string to_string(const expr_node& e) {
  switch (e.op) {
    case expr_op::constant: return constant_text(e);
    case expr_op::read: {
      std::vector<std::string> idx;
      for (const auto& a : e.index) idx.push_back(a.str());
      return fmt::format("{}({})", e.tensor->name, fmt::join(idx, ", "));
    }
    case expr_op::neg: {
      std::string s = to_string(*e.args[0]);
      return is_binary(e.args[0]->op) ? "-(" + s + ")" : "-" + s;
    }
    case expr_op::min: case expr_op::max:
      return fmt::format("{}({}, {})", e.op == expr_op::min ? "min" : "max", to_string(*e.args[0]),
                         to_string(*e.args[1]));
    case expr_op::cast: return fmt::format("cast<{}>({})", type_name(e.type), to_string(*e.args[0]));
    default: break;
  }
  const char* op = e.op == expr_op::add ? " + " : e.op == expr_op::sub ? " - " : e.op == expr_op::mul ? " * " : " / ";
  auto side = [&](const expr_node& a, bool right) {
    std::string s = to_string(a);
    bool paren = is_binary(a.op) && (precedence(a.op) < precedence(e.op) ||
                                     (right && precedence(a.op) == precedence(e.op) &&
                                      (e.op == expr_op::sub || e.op == expr_op::div)));
    return paren ? "(" + s + ")" : s;
  };
  return side(*e.args[0], false) + op + side(*e.args[1], true);
}

void for_each_read(const expr_node& e, const std::function<void(const expr_node&)>& f) {
  if (e.op == expr_op::read) f(e);
  for (const auto& a : e.args) for_each_read(*a, f);
}

std::string_view type_name(elem_type t) {
  switch (t) {
    case elem_type::f32: return "float";
    case elem_type::f64: return "double";
    case elem_type::i8: return "int8_t";
    case elem_type::u8: return "uint8_t";
    case elem_type::i16: return "int16_t";
    case elem_type::u16: return "uint16_t";
    case elem_type::i32: return "int32_t";
    case elem_type::u32: return "uint32_t";
  }
  return "?";
}

std::string with_article(elem_type t) {
  std::string_view name = type_name(t);  // "uint..." is read "you-int": only "int..." takes "an"
  return std::string(name.front() == 'i' ? "an " : "a ").append(name);
}

int type_size(elem_type t) {
  return visit_type(t, [](auto v) { return static_cast<int>(sizeof(v)); });
}

}  // namespace sadsl
