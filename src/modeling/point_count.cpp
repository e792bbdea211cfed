// The number of integer points of a parametric set as a model expression (point_count.hpp).
//
// isl generates a loop nest that visits each point of the set once (its AST of the identity
// schedule), correct for every parameter value. Counting its visits gives the count: a for loop
// is a sum over its iterator from the loop's lower to its upper bound (model::sum: 0 when the
// range is empty, closed where the body is a polynomial of the iterator), a guard a 0/1 factor, a
// point 1. The AST is built in the universe of the parameters, so that no guard the set needs is
// left to a context the values might violate.
#include "point_count.hpp"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::modeling {

namespace {

using model::max;
using model::min;
using model::op;

// 1 when the integers a <= b, else 0.
expr at_most(const expr& a, const expr& b) { return min(expr(1), max(expr(0), b - a + expr(1))); }

// e with every node structurally equal to `from` replaced by `to` (e's sums and maxima bind indices
// of their own, which `from` does not use).
expr replaced(const expr& e, const expr& from, const expr& to) {
  if (e.same_as(from)) return to;
  switch (e.kind()) {
    case op::constant:
    case op::parameter:
    case op::index: return e;
    case op::ceil: return model::ceil(replaced(e.lhs(), from, to));
    case op::floor: return model::floor(replaced(e.lhs(), from, to));
    case op::sum:
    case op::maximum: {
      expr index = expr::index(e.index_id(), e.parameter_name());
      expr lo = replaced(e.lhs(), from, to), hi = replaced(e.rhs(), from, to), body = replaced(e.body(), from, to);
      return e.kind() == op::sum ? model::sum(index, lo, hi, body) : model::maximum(index, lo, hi, body);
    }
    default: break;
  }
  expr a = replaced(e.lhs(), from, to), b = replaced(e.rhs(), from, to);
  switch (e.kind()) {
    case op::add: return a + b;
    case op::sub: return a - b;
    case op::mul: return a * b;
    case op::div: return a / b;
    case op::floor_div: return model::floor_div(a, b);
    case op::ceil_div: return model::ceil_div(a, b);
    case op::min: return min(a, b);
    case op::max: return max(a, b);
    case op::pow2_divisor: return model::pow2_divisor(a, b);
    default: break;
  }
  throw internal_error("point_count: an expression node it does not rebuild");
}

// e as slope x index + offset, slope 1 or -1 and offset free of the index, where it is one.
std::optional<std::pair<int, expr>> unit_linear(const expr& e, std::size_t id) {
  if (e.kind() == op::index && e.index_id() == id) return std::pair{1, expr(0)};
  if (!uses_index(e, id)) return std::pair{0, e};
  if (e.kind() != op::add && e.kind() != op::sub) return std::nullopt;
  auto a = unit_linear(e.lhs(), id), b = unit_linear(e.rhs(), id);
  if (!a || !b) return std::nullopt;
  const int slope = e.kind() == op::add ? a->first + b->first : a->first - b->first;
  if (slope != 1 && slope != -1) return std::nullopt;
  return std::pair{slope, e.kind() == op::add ? a->second + b->second : a->second - b->second};
}

// A min or max in e of an index-free operand and a unit_linear one: where the sum over the index
// splits into two pieces, in each of which it is one of its operands.
struct breakpoint {
  expr node;
  expr below, above;  // the node's value at index < at, and at index >= at
  expr at;
};
std::optional<breakpoint> breakpoint_in(const expr& e, std::size_t id) {
  if (!uses_index(e, id) || is_reduction(e.kind())) return std::nullopt;
  if (e.kind() == op::min || e.kind() == op::max) {
    for (int side = 0; side < 2; ++side) {
      const expr& f = side ? e.lhs() : e.rhs();
      const expr& g = side ? e.rhs() : e.lhs();
      if (uses_index(f, id)) continue;
      auto linear = unit_linear(g, id);
      if (!linear || linear->first == 0) continue;
      // g >= f from index f - d on (slope 1), up to d - f (slope -1); integers, so the pieces
      // meet at an integer.
      const bool rising = linear->first == 1;
      expr at = rising ? model::ceil(f - linear->second) : model::floor(linear->second - f) + expr(1);
      const bool take_g_below = rising == (e.kind() == op::min);  // below the point g < f where rising
      return breakpoint{e, take_g_below ? g : f, take_g_below ? f : g, at};
    }
  }
  for (std::size_t i = 0; i < operand_count(e.kind()); ++i)
    if (auto found = breakpoint_in(e.operand(i), id)) return found;
  return std::nullopt;
}

// The sum of body over index = lo..hi in closed form where splitting the range at the minima
// and maxima of the index (up to `splits` deep) leaves polynomial pieces (model::sum closes
// those: a PE's points in LU's tile, a sum over k of max(0, min(N, o_i + t_i) - max(o_i, k))),
// else the one loop.
expr piecewise_sum(const expr& index, const expr& lo, const expr& hi, const expr& body, int splits = 4) {
  expr whole = model::sum(index, lo, hi, body);
  if (whole.kind() != op::sum || splits == 0) return whole;
  auto point = breakpoint_in(body, index.index_id());
  if (!point) return whole;
  expr lower = piecewise_sum(index, lo, min(hi, point->at - expr(1)), replaced(body, point->node, point->below), splits - 1);
  expr upper = piecewise_sum(index, max(lo, point->at), hi, replaced(body, point->node, point->above), splits - 1);
  if (lower.kind() == op::sum || upper.kind() == op::sum) return whole;
  return lower + upper;
}

class counter {
public:
  counter(const isl::set& s, const std::vector<expr>& params, std::size_t& next_index)
      : params_(params), next_index_(next_index) {
    isl_size n = isl_set_dim(s.get(), isl_dim_param);
    SADSL_INTERNAL_ASSERT(n >= 0 && static_cast<std::size_t>(n) == params.size(),
                          "point_count: one expression per parameter of the set");
    for (isl_size i = 0; i < n; ++i) {
      isl_id* id = isl_set_get_dim_id(s.get(), isl_dim_param, static_cast<unsigned>(i));
      param_of_[isl_id_get_name(id)] = static_cast<std::size_t>(i);
      isl_id_free(id);
    }
  }

  expr count(isl_ast_node* node) {
    switch (isl_ast_node_get_type(node)) {
      case isl_ast_node_user: return 1;
      case isl_ast_node_mark: return with(isl_ast_node_mark_get_node(node), [&](isl_ast_node* inner) { return count(inner); });
      case isl_ast_node_block: {
        isl_ast_node_list* children = isl_ast_node_block_get_children(node);
        expr total = 0;
        for (isl_size i = 0; i < isl_ast_node_list_n_ast_node(children); ++i)
          total = total + with(isl_ast_node_list_get_ast_node(children, i), [&](isl_ast_node* c) { return count(c); });
        isl_ast_node_list_free(children);
        return total;
      }
      case isl_ast_node_if: {
        expr holds = with(isl_ast_node_if_get_cond(node), [&](isl_ast_expr* c) { return condition(c); });
        expr then = with(isl_ast_node_if_get_then_node(node), [&](isl_ast_node* t) { return count(t); });
        if (isl_ast_node_if_has_else_node(node) != isl_bool_true) return holds * then;
        expr otherwise = with(isl_ast_node_if_get_else_node(node), [&](isl_ast_node* e) { return count(e); });
        return holds * then + (expr(1) - holds) * otherwise;
      }
      case isl_ast_node_for: return loop(node);
      default: break;
    }
    throw internal_error("point_count: an AST node isl does not generate for a set");
  }

private:
  // Calls f on an owned isl object and frees it, also when f throws.
  template <class T, class F>
  static expr with(T* object, F&& f) {
    struct owner {
      T* p;
      ~owner() { free(p); }
      static void free(isl_ast_node* n) { isl_ast_node_free(n); }
      static void free(isl_ast_expr* e) { isl_ast_expr_free(e); }
    } own{object};
    return f(object);
  }

  // A for loop: the sum of its body over the iterator, which takes init, init + inc, ... up to its
  // upper bound (the condition `iterator <= bound` or `iterator < bound` isl generates).
  expr loop(isl_ast_node* node) {
    isl_ast_expr* it = isl_ast_node_for_get_iterator(node);
    isl_id* id = isl_ast_expr_get_id(it);
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    isl_ast_expr_free(it);
    expr lo = with(isl_ast_node_for_get_init(node), [&](isl_ast_expr* e) { return value(e); });
    expr index = expr::index(next_index_++, name);
    if (isl_ast_node_for_is_degenerate(node) == isl_bool_true) {  // one iteration, at init
      iterators_[name] = lo;
      expr body = with(isl_ast_node_for_get_body(node), [&](isl_ast_node* b) { return count(b); });
      iterators_.erase(name);
      return body;
    }
    expr step = with(isl_ast_node_for_get_inc(node), [&](isl_ast_expr* e) { return value(e); });
    SADSL_INTERNAL_ASSERT(step.is_constant() && step.constant_value() >= 1, "point_count: a loop whose step is not a positive constant");
    // With a step s the iterator is lo + s x index, index = 0 .. floor((bound - lo) / s).
    iterators_[name] = step.is_constant(1) ? index : lo + step * index;
    expr hi = with(isl_ast_node_for_get_cond(node), [&](isl_ast_expr* c) { return upper_bound(c, name); });
    expr body = with(isl_ast_node_for_get_body(node), [&](isl_ast_node* b) { return count(b); });
    iterators_.erase(name);
    if (step.is_constant(1)) return piecewise_sum(index, lo, hi, body);
    return model::sum(index, expr(0), model::floor_div(hi - lo, step), body);
  }

  expr upper_bound(isl_ast_expr* cond, const std::string& iterator) {
    SADSL_INTERNAL_ASSERT(isl_ast_expr_get_type(cond) == isl_ast_expr_op, "point_count: a loop condition that is not a comparison");
    isl_ast_expr_op_type kind = isl_ast_expr_op_get_type(cond);
    SADSL_INTERNAL_ASSERT(kind == isl_ast_expr_op_le || kind == isl_ast_expr_op_lt, "point_count: a loop condition other than <= or <");
    isl_ast_expr* lhs = isl_ast_expr_op_get_arg(cond, 0);
    bool on_iterator = false;
    if (isl_ast_expr_get_type(lhs) == isl_ast_expr_id) {
      isl_id* id = isl_ast_expr_get_id(lhs);
      on_iterator = iterator == isl_id_get_name(id);
      isl_id_free(id);
    }
    isl_ast_expr_free(lhs);
    SADSL_INTERNAL_ASSERT(on_iterator, "point_count: a loop condition that does not bound its iterator");
    expr bound = with(isl_ast_expr_op_get_arg(cond, 1), [&](isl_ast_expr* e) { return value(e); });
    return kind == isl_ast_expr_op_lt ? bound - expr(1) : bound;
  }

  // The operands of an operation, as values.
  std::vector<expr> operands(isl_ast_expr* e) {
    std::vector<expr> out;
    for (isl_size i = 0; i < isl_ast_expr_op_get_n_arg(e); ++i)
      out.push_back(with(isl_ast_expr_op_get_arg(e, i), [&](isl_ast_expr* a) { return value(a); }));
    return out;
  }

  expr value(isl_ast_expr* e) {
    switch (isl_ast_expr_get_type(e)) {
      case isl_ast_expr_int: {
        isl_val* v = isl_ast_expr_get_val(e);
        double x = isl_val_get_d(v);
        bool small = isl_val_is_int(v) == isl_bool_true && std::abs(x) < 9007199254740992.0;
        isl_val_free(v);
        SADSL_INTERNAL_ASSERT(small, "point_count: a constant that is not an integer below 2^53");
        return x;
      }
      case isl_ast_expr_id: {
        isl_id* id = isl_ast_expr_get_id(e);
        std::string name = isl_id_get_name(id);
        isl_id_free(id);
        if (auto it = iterators_.find(name); it != iterators_.end()) return it->second;
        auto p = param_of_.find(name);
        SADSL_INTERNAL_ASSERT(p != param_of_.end(), "point_count: an AST name that is neither a loop nor a parameter: " + name);
        return params_.at(p->second);
      }
      case isl_ast_expr_op: return operation(e);
      default: break;
    }
    throw internal_error("point_count: an AST expression of an unknown type");
  }

  expr operation(isl_ast_expr* e) {
    isl_ast_expr_op_type kind = isl_ast_expr_op_get_type(e);
    switch (kind) {
      case isl_ast_expr_op_eq:
      case isl_ast_expr_op_le:
      case isl_ast_expr_op_lt:
      case isl_ast_expr_op_ge:
      case isl_ast_expr_op_gt:
      case isl_ast_expr_op_and:
      case isl_ast_expr_op_and_then:
      case isl_ast_expr_op_or:
      case isl_ast_expr_op_or_else: return condition(e);
      case isl_ast_expr_op_cond:
      case isl_ast_expr_op_select: {
        expr holds = with(isl_ast_expr_op_get_arg(e, 0), [&](isl_ast_expr* c) { return condition(c); });
        expr a = with(isl_ast_expr_op_get_arg(e, 1), [&](isl_ast_expr* x) { return value(x); });
        expr b = with(isl_ast_expr_op_get_arg(e, 2), [&](isl_ast_expr* x) { return value(x); });
        return holds * a + (expr(1) - holds) * b;
      }
      default: break;
    }
    std::vector<expr> x = operands(e);
    switch (kind) {
      case isl_ast_expr_op_minus: return expr(0) - x.at(0);
      case isl_ast_expr_op_add: return x.at(0) + x.at(1);
      case isl_ast_expr_op_sub: return x.at(0) - x.at(1);
      case isl_ast_expr_op_mul: return x.at(0) * x.at(1);
      case isl_ast_expr_op_div:  // exact: the dividend is a multiple of the divisor
      case isl_ast_expr_op_fdiv_q:
      case isl_ast_expr_op_pdiv_q: return model::floor_div(x.at(0), x.at(1));
      case isl_ast_expr_op_pdiv_r:
      case isl_ast_expr_op_zdiv_r:  // only compared against 0: the floor remainder is 0 alike
        return x.at(0) - x.at(1) * model::floor_div(x.at(0), x.at(1));
      case isl_ast_expr_op_min:
      case isl_ast_expr_op_max: {
        expr out = x.at(0);
        for (std::size_t i = 1; i < x.size(); ++i) out = kind == isl_ast_expr_op_min ? min(out, x[i]) : max(out, x[i]);
        return out;
      }
      default: break;
    }
    throw internal_error(fmt::format("point_count: an AST operation it does not read ({})", static_cast<int>(kind)));
  }

  // 1 where the condition holds, else 0 (its operands are integers).
  expr condition(isl_ast_expr* e) {
    SADSL_INTERNAL_ASSERT(isl_ast_expr_get_type(e) == isl_ast_expr_op, "point_count: a condition that is not an operation");
    isl_ast_expr_op_type kind = isl_ast_expr_op_get_type(e);
    if (kind == isl_ast_expr_op_and || kind == isl_ast_expr_op_and_then || kind == isl_ast_expr_op_or ||
        kind == isl_ast_expr_op_or_else) {
      expr a = with(isl_ast_expr_op_get_arg(e, 0), [&](isl_ast_expr* c) { return condition(c); });
      expr b = with(isl_ast_expr_op_get_arg(e, 1), [&](isl_ast_expr* c) { return condition(c); });
      bool both = kind == isl_ast_expr_op_and || kind == isl_ast_expr_op_and_then;
      return both ? a * b : max(a, b);
    }
    std::vector<expr> x = operands(e);
    switch (kind) {
      case isl_ast_expr_op_eq: return at_most(x.at(0), x.at(1)) * at_most(x.at(1), x.at(0));
      case isl_ast_expr_op_le: return at_most(x.at(0), x.at(1));
      case isl_ast_expr_op_lt: return at_most(x.at(0) + expr(1), x.at(1));
      case isl_ast_expr_op_ge: return at_most(x.at(1), x.at(0));
      case isl_ast_expr_op_gt: return at_most(x.at(1) + expr(1), x.at(0));
      default: break;
    }
    throw internal_error(fmt::format("point_count: a condition it does not read ({})", static_cast<int>(kind)));
  }

  const std::vector<expr>& params_;
  std::size_t& next_index_;
  std::map<std::string, std::size_t> param_of_;
  std::map<std::string, expr> iterators_;  // loop iterator -> its value
};

}  // namespace

expr point_count(const isl::set& s, const std::vector<expr>& params, std::size_t& next_index) {
  // The loops isl generates must be finite: each dimension bounded below and above for every
  // parameter value (checked dimension by dimension on the set's projection onto it).
  isl_size dims = isl_set_dim(s.get(), isl_dim_set);
  for (isl_size d = 0; d < dims; ++d) {
    bool bounded = isl_set_dim_has_lower_bound(s.get(), isl_dim_set, static_cast<unsigned>(d)) == isl_bool_true &&
                   isl_set_dim_has_upper_bound(s.get(), isl_dim_set, static_cast<unsigned>(d)) == isl_bool_true;
    if (!bounded) {
      char* text = isl_set_to_str(s.get());
      std::string printed = text ? text : "";
      free(text);
      throw error(fmt::format("point_count: dimension {} of {} is unbounded: its points cannot be counted", d, printed));
    }
  }
  // The loops of the identity schedule of s, in the universe of its parameters.
  isl_map* identity = isl_map_identity(isl_space_map_from_set(isl_set_get_space(s.get())));
  isl_map* schedule = isl_map_intersect_domain(identity, s.copy());
  isl_ast_build* build = isl_ast_build_from_context(isl_set_universe(isl_space_params(isl_set_get_space(s.get()))));
  isl_ast_node* root = isl_ast_build_node_from_schedule_map(build, isl_union_map_from_map(schedule));
  isl_ast_build_free(build);
  SADSL_INTERNAL_ASSERT(root != nullptr, "point_count: isl could not generate the set's loops");
  isl::ast_node ast = isl::manage(root);
  return counter(s, params, next_index).count(ast.get());
}

}  // namespace sadsl::modeling
