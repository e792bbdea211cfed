// Cycles of a module part read off its template program (part_cost.hpp).
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

// The schedule dimension d a loop's iterator c<d> names.
int iterator_dim(const program_node& loop) {
  const std::string& name = loop.iterator;
  SADSL_INTERNAL_ASSERT(name.size() > 1 && name[0] == 'c', "a loop iterator not named by its schedule dimension: " + name);
  return std::stoi(name.substr(1));
}

using kind = program_node::kind;

// A loop iterator's name: c<d>, for schedule dimension d.
bool iterator_name(const std::string& name) {
  return name.size() > 1 && name[0] == 'c' && std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether some id of e is an iterator (`iterators`) or a parameter (!`iterators`).
bool mentions(isl_ast_expr* e, bool iterators) {
  return mentions_id(e, [&](const char* name) { return iterator_name(name) == iterators; });
}

// A block that runs in some tiles only: guarded by the tile loops' values alone (`if (t2 == 0)`).
bool tile_guarded(const program_node& n) {
  return n.what == kind::guard && n.body.size() == 1 && n.cond && !mentions(n.cond->get(), true);
}

// A loop whose bounds move with the tile (`max(0, -8 * t2 + 1)`), at n or below.
bool tile_bounded_loop(const program_node& n) {
  if (n.what == kind::loop && ((n.init && mentions(n.init->get(), false)) || (n.cond && mentions(n.cond->get(), false)))) return true;
  return std::any_of(n.body.begin(), n.body.end(), tile_bounded_loop);
}

class cost_walker {
public:
  cost_walker(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& t)
      : part_(part), dims_(dims), timing_(t) {}

  expr of(const program_node& n) const {
    switch (n.what) {
      case kind::loop: {
        expr trip = dims_.at(static_cast<size_t>(iterator_dim(n)));
        if (classify_loop(part_, n) == loop_kind::pipelined)
          return trip * expr(static_cast<double>(timing_.ii)) + expr(static_cast<double>(timing_.depth));
        return trip * of(n.body.at(0));
      }
      case kind::guard: {
        expr then = of(n.body.at(0));
        if (n.body.size() < 2) return then;
        return model::max(then, of(n.body[1]));
      }
      case kind::sequence: {
        // A DSL if/else on a band loop's end (`k == 0` initializes, the rest accumulates) splits
        // the loop: in the first tile a guarded block runs the iterations its sibling's bounds
        // leave out there, so every tile runs as many, the sibling's full trip. (Whether the tiles
        // do take one count is measured at the template, performance_model.cpp.)
        bool split = std::any_of(n.body.begin(), n.body.end(), tile_bounded_loop);
        expr total = 0;
        for (const auto& c : n.body)
          if (!split || !tile_guarded(c)) total = total + of(c);
        return total;
      }
      case kind::call: return n.block >= 0 ? 1 : 0;
    }
    throw internal_error("performance model: an unexpected program node");
  }

  // Records the stride of every loop at or below n; `inside` once within a pipelined loop.
  void strides(const program_node& n, bool inside, std::map<size_t, expr>& out) const {
    if (n.what != kind::loop) {
      for (const auto& c : n.body) strides(c, inside, out);
      return;
    }
    bool pipelined = !inside && classify_loop(part_, n) == loop_kind::pipelined;
    expr stride = inside ? expr(0) : pipelined ? expr(static_cast<double>(timing_.ii)) : of(n.body.at(0));
    out.emplace(static_cast<size_t>(iterator_dim(n)), stride);
    strides(n.body.at(0), inside || pipelined, out);
  }

private:
  const module_part& part_;
  const std::vector<expr>& dims_;
  pipeline_timing timing_;
};

// The calls of a program, with the schedule dims of the loops around each.
void calls(const program_node& n, std::vector<size_t>& loops,
           const std::function<void(const program_node&, const std::vector<size_t>&)>& f) {
  switch (n.what) {
    case kind::loop:
      loops.push_back(static_cast<size_t>(iterator_dim(n)));
      calls(n.body.at(0), loops, f);
      loops.pop_back();
      return;
    case kind::call: f(n, loops); return;
    default:
      for (const auto& c : n.body) calls(c, loops, f);
  }
}

}  // namespace

expr part_cost(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& timing) {
  return cost_walker(part, dims, timing).of(part.program);
}

std::map<size_t, expr> loop_strides(const module_part& part, const std::vector<expr>& dims, const pipeline_timing& timing) {
  std::map<size_t, expr> out;
  cost_walker(part, dims, timing).strides(part.program, false, out);
  return out;
}

expr token_span(const module_part& side, const std::map<size_t, expr>& strides, const std::vector<expr>& dims,
                const std::vector<int64_t>& at_template, const pipeline_timing& timing, int64_t from) {
  std::optional<expr> span;
  std::vector<size_t> loops;
  calls(side.program, loops, [&](const program_node& node, const std::vector<size_t>& around) {
    if (node.block < 0) return;
    isl_ast_expr* call = isl_ast_expr_copy(node.call->get());
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
