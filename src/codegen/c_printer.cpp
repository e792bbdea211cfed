#include "c_printer.hpp"

#include <isl/ast.h>
#include <isl/id.h>
#include <isl/val.h>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::codegen_detail {

void c_writer::line(const std::string& text) { out_ += std::string(static_cast<size_t>(2 * indent_), ' ') + text + "\n"; }

void c_writer::open(const std::string& text) {
  line(text + " {");
  ++indent_;
}

void c_writer::close(const std::string& tail) {
  --indent_;
  line("}" + tail);
}

namespace {

std::string c_expr_raw(isl_ast_expr* e);

std::string arg(isl_ast_expr* e, int i) {
  isl_ast_expr* a = isl_ast_expr_op_get_arg(e, i);
  std::string s = c_expr_raw(a);
  isl_ast_expr_free(a);
  return s;
}

// min and max take two or more arguments: nested helper calls.
std::string fold(isl_ast_expr* e, const char* helper) {
  int n = isl_ast_expr_op_get_n_arg(e);
  std::string s = arg(e, 0);
  for (int i = 1; i < n; ++i) s = fmt::format("{}({}, {})", helper, s, arg(e, i));
  return s;
}

std::string binary(isl_ast_expr* e, const char* op) { return fmt::format("({} {} {})", arg(e, 0), op, arg(e, 1)); }

std::string operation(isl_ast_expr* e) {
  switch (isl_ast_expr_op_get_type(e)) {
    case isl_ast_expr_op_and:
    case isl_ast_expr_op_and_then: return binary(e, "&&");
    case isl_ast_expr_op_or:
    case isl_ast_expr_op_or_else: return binary(e, "||");
    case isl_ast_expr_op_max: return fold(e, "sadsl_max");
    case isl_ast_expr_op_min: return fold(e, "sadsl_min");
    case isl_ast_expr_op_minus: return fmt::format("(-{})", arg(e, 0));
    case isl_ast_expr_op_add: return binary(e, "+");
    case isl_ast_expr_op_sub: return binary(e, "-");
    case isl_ast_expr_op_mul: return binary(e, "*");
    case isl_ast_expr_op_div:
    case isl_ast_expr_op_pdiv_q: return binary(e, "/");
    case isl_ast_expr_op_fdiv_q: return fmt::format("sadsl_floord({}, {})", arg(e, 0), arg(e, 1));
    case isl_ast_expr_op_pdiv_r:
    case isl_ast_expr_op_zdiv_r: return binary(e, "%");
    case isl_ast_expr_op_cond:
    case isl_ast_expr_op_select: return fmt::format("({} ? {} : {})", arg(e, 0), arg(e, 1), arg(e, 2));
    case isl_ast_expr_op_eq: return binary(e, "==");
    case isl_ast_expr_op_le: return binary(e, "<=");
    case isl_ast_expr_op_lt: return binary(e, "<");
    case isl_ast_expr_op_ge: return binary(e, ">=");
    case isl_ast_expr_op_gt: return binary(e, ">");
    default: break;
  }
  SADSL_INTERNAL_ASSERT(false, fmt::format("codegen: unexpected isl AST operation {}", static_cast<int>(isl_ast_expr_op_get_type(e))));
}

std::string c_expr_raw(isl_ast_expr* e) {
  switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_int: {
      isl_val* v = isl_ast_expr_get_val(e);
      long n = isl_val_get_num_si(v);
      isl_val_free(v);
      return n < 0 ? fmt::format("({})", n) : std::to_string(n);
    }
    case isl_ast_expr_id: {
      isl_id* id = isl_ast_expr_get_id(e);
      std::string name = isl_id_get_name(id);
      isl_id_free(id);
      return name;
    }
    case isl_ast_expr_op: return operation(e);
    default: break;
  }
  SADSL_INTERNAL_ASSERT(false, "codegen: unexpected isl AST expression");
}

}  // namespace

std::string c_expr(const isl::ast_expr& e) { return c_expr_raw(e.get()); }

std::string id_of(const isl::ast_expr& e) {
  if (isl_ast_expr_get_type(e.get()) != isl_ast_expr_id) return "";
  return c_expr_raw(e.get());
}

void print_program(const program_node& n, const program_callbacks& cb, c_writer& out) {
  switch (n.what) {
    case program_node::kind::loop:
      out.open(fmt::format("for (int {} = {}; {}; {} += {})", n.iterator, c_expr(*n.init), c_expr(*n.cond), n.iterator,
                           c_expr(*n.inc)));
      for (const auto& p : cb.loop_pragmas(n)) out.line(p);
      print_program(n.body.at(0), cb, out);
      out.close();
      return;
    case program_node::kind::guard:
      out.open(fmt::format("if ({})", c_expr(*n.cond)));
      print_program(n.body.at(0), cb, out);
      if (n.body.size() > 1) {
        out.close();
        out.open("else");
        print_program(n.body[1], cb, out);
      }
      out.close();
      return;
    case program_node::kind::sequence:
      for (const auto& c : n.body) print_program(c, cb, out);
      return;
    case program_node::kind::call: cb.call(n, out); return;
  }
  SADSL_INTERNAL_ASSERT(false, "codegen: unexpected program node");
}

}  // namespace sadsl::codegen_detail
