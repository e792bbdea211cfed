// Cycles of a module part read off its template AST (part_cost.hpp).
#include "part_cost.hpp"

#include <isl/ast.h>
#include <isl/id.h>
#include <isl/val.h>

#include <algorithm>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::modeling {

namespace {

// The schedule dimension d an AST iterator c<d> names.
int iterator_dim(const isl::ast_node& for_node) {
  isl_ast_expr* it = isl_ast_node_for_get_iterator(for_node.get());
  isl_id* id = isl_ast_expr_get_id(it);
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  isl_ast_expr_free(it);
  SADSL_INTERNAL_ASSERT(name.size() > 1 && name[0] == 'c', "an AST iterator not named by its schedule dimension: " + name);
  return std::stoi(name.substr(1));
}

isl::ast_node body_of(const isl::ast_node& for_node) { return isl::manage(isl_ast_node_for_get_body(for_node.get())); }

// Calls f on each child of an if (then, else) or block node.
void for_children(const isl::ast_node& n, const std::function<void(const isl::ast_node&)>& f) {
  if (isl_ast_node_get_type(n.get()) == isl_ast_node_if) {
    f(isl::manage(isl_ast_node_if_get_then_node(n.get())));
    if (isl_ast_node_if_has_else_node(n.get())) f(isl::manage(isl_ast_node_if_get_else_node(n.get())));
  } else if (isl_ast_node_get_type(n.get()) == isl_ast_node_block) {
    isl_ast_node_list* list = isl_ast_node_block_get_children(n.get());
    for (int i = 0; i < isl_ast_node_list_n_ast_node(list); ++i) f(isl::manage(isl_ast_node_list_get_ast_node(list, i)));
    isl_ast_node_list_free(list);
  }
}

class cost_walker {
public:
  cost_walker(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& t)
      : part_(part), dims_(dims), timing_(t) {}

  expr of(const isl::ast_node& n) const {
    switch (isl_ast_node_get_type(n.get())) {
      case isl_ast_node_for: {
        expr trip = dims_.at(static_cast<size_t>(iterator_dim(n)));
        if (classify_loop(part_, n) == loop_kind::pipelined)
          return trip * expr(static_cast<double>(timing_.ii)) + expr(static_cast<double>(timing_.depth));
        return trip * of(body_of(n));
      }
      case isl_ast_node_if: {
        expr then = of(isl::manage(isl_ast_node_if_get_then_node(n.get())));
        if (!isl_ast_node_if_has_else_node(n.get())) return then;
        return model::max(then, of(isl::manage(isl_ast_node_if_get_else_node(n.get()))));
      }
      case isl_ast_node_block: {
        expr total = 0;
        for_children(n, [&](const isl::ast_node& c) { total = total + of(c); });
        return total;
      }
      case isl_ast_node_user: return block_index(n) >= 0 ? 1 : 0;
      default: throw internal_error("performance model: an unexpected AST node");
    }
  }

  // Records the stride of every loop at or below n; `inside` once within a pipelined loop.
  void strides(const isl::ast_node& n, bool inside, std::map<size_t, expr>& out) const {
    if (isl_ast_node_get_type(n.get()) != isl_ast_node_for) {
      for_children(n, [&](const isl::ast_node& c) { strides(c, inside, out); });
      return;
    }
    bool pipelined = !inside && classify_loop(part_, n) == loop_kind::pipelined;
    expr stride = inside ? expr(0) : pipelined ? expr(static_cast<double>(timing_.ii)) : of(body_of(n));
    out.emplace(static_cast<size_t>(iterator_dim(n)), stride);
    strides(body_of(n), inside || pipelined, out);
  }

private:
  const module_part& part_;
  const std::vector<expr>& dims_;
  pipeline_timing timing_;
};

// The user nodes of an AST, with the schedule dims of the loops around each.
void user_nodes(const isl::ast_node& n, std::vector<size_t>& loops,
                const std::function<void(const isl::ast_node&, const std::vector<size_t>&)>& f) {
  switch (isl_ast_node_get_type(n.get())) {
    case isl_ast_node_for:
      loops.push_back(static_cast<size_t>(iterator_dim(n)));
      user_nodes(body_of(n), loops, f);
      loops.pop_back();
      return;
    case isl_ast_node_user: f(n, loops); return;
    default: for_children(n, [&](const isl::ast_node& c) { user_nodes(c, loops, f); });
  }
}

}  // namespace

expr part_cost(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& timing) {
  return cost_walker(part, dims, timing).of(part.ast);
}

std::map<size_t, expr> loop_strides(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& timing) {
  std::map<size_t, expr> out;
  cost_walker(part, dims, timing).strides(part.ast, false, out);
  return out;
}

expr token_span(const module_part& side, const std::map<size_t, expr>& strides, const std::vector<expr>& dims,
                const std::vector<int64_t>& at_template, const pipeline_timing& timing, int64_t from) {
  std::optional<expr> span;
  std::vector<size_t> loops;
  user_nodes(side.ast, loops, [&](const isl::ast_node& user, const std::vector<size_t>& around) {
    if (block_index(user) < 0) return;
    isl_ast_expr* call = isl_ast_node_user_get_expr(user.get());
    expr s = static_cast<double>(timing.ii);  // the last token's own cycle
    // Argument d + 1 of the call is the token's frame coordinate d: a loop's iterator (its whole
    // extent is spanned) or a constant, which must be the first or the last value.
    for (int d = 0; d + 1 < isl_ast_expr_op_get_n_arg(call) && static_cast<size_t>(d) < at_template.size(); ++d) {
      isl_ast_expr* arg = isl_ast_expr_op_get_arg(call, d + 1);
      bool fixed = isl_ast_expr_get_type(arg) == isl_ast_expr_int;
      long value = -1;
      if (fixed) {
        isl_val* v = isl_ast_expr_get_val(arg);
        value = isl_val_get_num_si(v);
        isl_val_free(v);
      }
      isl_ast_expr_free(arg);
      auto stride = strides.find(static_cast<size_t>(d));
      bool free = std::find(around.begin(), around.end(), static_cast<size_t>(d)) != around.end();
      if (free && stride != strides.end()) s = s + (dims.at(static_cast<size_t>(d)) - expr(1)) * stride->second;
      if (!free && (!fixed || (value != 0 && value != at_template.at(static_cast<size_t>(d)) - 1)) &&
          (stride == strides.end() || !stride->second.is_constant(0))) {
        isl_ast_expr_free(call);
        throw error(fmt::format("part {}: its tokens are not a box of the PE's frame (dimension {}); sadsl does not model "
                                "that yet", side.name, d));
      }
    }
    isl_ast_expr_free(call);
    // Token `from` (in the order of the loops around, the innermost fastest) is this far from the
    // first: its coordinate along loop d is floor(from / the extents inside d) mod the extent.
    expr offset = 0, inside = 1;
    for (size_t i = around.size(); i-- > 0;) {
      auto stride = strides.find(around[i]);
      const expr& e = dims.at(around[i]);
      expr q = model::floor_div(expr(static_cast<double>(from)), inside);
      if (stride != strides.end()) offset = offset + (q - e * model::floor_div(q, e)) * stride->second;
      inside = inside * e;
    }
    s = model::max(expr(0), s - offset);
    span = span ? model::max(*span, s) : s;
  });
  return span.value_or(expr(0));
}

}  // namespace sadsl::modeling
