#include "exec_program.hpp"

#include <isl/ast.h>
#include <isl/id.h>
#include <isl/val.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::exec {

namespace {

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::string id_name(isl_ast_expr* e) {
  isl_id* id = isl_ast_expr_get_id(e);
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  return name;
}

class translator {
public:
  translator(std::string part, size_t tiles, size_t coords) : part_(std::move(part)) {
    for (size_t j = 0; j < tiles; ++j) slots_[fmt::format("t{}", j)] = static_cast<int>(j);
    for (size_t i = 0; i < coords; ++i) slots_[fmt::format("p{}", i)] = static_cast<int>(tiles + i);
    next_ = static_cast<int>(tiles + coords);
    for (const auto& [name, slot] : slots_) in_scope_.insert(name);
  }

  int slot_of(const std::string& name) {
    auto [it, inserted] = slots_.emplace(name, next_);
    if (inserted) ++next_;
    return it->second;
  }
  int slots() const { return next_; }

  iexpr expr(const isl::ast_expr& wrapped) { return expr(wrapped.get()); }

  iexpr expr(isl_ast_expr* e) {
    iexpr out;
    switch (isl_ast_expr_get_type(e)) {
      case isl_ast_expr_int: {
        isl_val* v = isl_ast_expr_get_val(e);
        out.value = isl_val_get_num_si(v);
        isl_val_free(v);
        return out;
      }
      case isl_ast_expr_id: {
        // Only the parameters and the loops around have values: anything else would read a slot
        // nothing wrote.
        std::string name = id_name(e);
        SADSL_INTERNAL_ASSERT(in_scope_.count(name),
                              fmt::format("the program of part {} uses {} where it has no value", part_, name));
        out.op = iop::slot;
        out.slot = slot_of(name);
        return out;
      }
      case isl_ast_expr_op: break;
      default: SADSL_INTERNAL_ASSERT(false, "unexpected isl AST expression");
    }
    out.op = op_of(isl_ast_expr_op_get_type(e));
    int n = isl_ast_expr_op_get_n_arg(e);
    for (int i = 0; i < n; ++i) {
      isl_ast_expr* arg = isl_ast_expr_op_get_arg(e, i);
      out.args.push_back(expr(arg));
      isl_ast_expr_free(arg);
    }
    return out;
  }

  // part: the module part the program belongs to (its loops are classified), or null (the tile loops).
  node translate(const program_node& n, const module_part* part, std::vector<compiled_block>& out_blocks) {
    node out;
    switch (n.what) {
      case program_node::kind::loop:
        out.kind = node_kind::for_loop;
        out.slot = slot_of(n.iterator);
        out.init = expr(*n.init);
        in_scope_.insert(n.iterator);
        out.cond = expr(*n.cond);
        out.inc = expr(*n.inc);
        if (part) out.loop = classify_loop(*part, n);
        out.children.push_back(translate(n.body.at(0), part, out_blocks));
        in_scope_.erase(n.iterator);
        return out;
      case program_node::kind::guard:
        out.kind = node_kind::if_then;
        out.cond = expr(*n.cond);
        break;
      case program_node::kind::sequence: out.kind = node_kind::block; break;
      case program_node::kind::call: {
        out.kind = node_kind::user;
        isl_ast_expr* call = n.call->get();
        int args = isl_ast_expr_op_get_n_arg(call);
        for (int i = 1; i < args; ++i) {
          isl_ast_expr* a = isl_ast_expr_op_get_arg(call, i);
          out.args.push_back(expr(a));
          isl_ast_expr_free(a);
        }
        if (part && n.block >= 0 && static_cast<size_t>(n.block) < part->blocks.size()) {
          out.block = static_cast<int>(out_blocks.size());
          out_blocks.push_back(compile_block(part->blocks.at(static_cast<size_t>(n.block))));
        }
        break;
      }
    }
    for (const auto& c : n.body) out.children.push_back(translate(c, part, out_blocks));
    return out;
  }

private:
  compiled_block compile_block(const op_block& b) {
    compiled_block out;
    out.statement_index = b.statement_index;
    for (const auto& op : b.ops) {
      compiled_op c;
      c.what = op.what, c.port = op.port, c.buffer = op.buffer, c.slot = op.slot, c.lanes = op.lanes, c.vector = op.vector;
      if (op.lane) c.has_lane = true, c.lane = expr(*op.lane);
      if (op.when) c.has_when = true, c.when = expr(*op.when);
      for (const auto& x : op.index) c.index.push_back(expr(x));
      out.ops.push_back(std::move(c));
    }
    return out;
  }

  static iop op_of(isl_ast_expr_op_type t) {
    switch (t) {
      case isl_ast_expr_op_and: case isl_ast_expr_op_and_then: return iop::land;
      case isl_ast_expr_op_or: case isl_ast_expr_op_or_else: return iop::lor;
      case isl_ast_expr_op_max: return iop::max;
      case isl_ast_expr_op_min: return iop::min;
      case isl_ast_expr_op_minus: return iop::neg;
      case isl_ast_expr_op_add: return iop::add;
      case isl_ast_expr_op_sub: return iop::sub;
      case isl_ast_expr_op_mul: return iop::mul;
      case isl_ast_expr_op_div: case isl_ast_expr_op_pdiv_q: return iop::div;
      case isl_ast_expr_op_fdiv_q: return iop::fdiv_q;
      case isl_ast_expr_op_pdiv_r: case isl_ast_expr_op_zdiv_r: return iop::pdiv_r;
      case isl_ast_expr_op_cond: case isl_ast_expr_op_select: return iop::select;
      case isl_ast_expr_op_eq: return iop::eq;
      case isl_ast_expr_op_le: return iop::le;
      case isl_ast_expr_op_lt: return iop::lt;
      case isl_ast_expr_op_ge: return iop::ge;
      case isl_ast_expr_op_gt: return iop::gt;
      default: SADSL_INTERNAL_ASSERT(false, fmt::format("unexpected isl AST operation {}", static_cast<int>(t)));
    }
  }

  std::string part_;
  std::map<std::string, int> slots_;
  std::set<std::string> in_scope_;  // the parameters and the iterators of the loops around
  int next_ = 0;
};

}  // namespace

int64_t evaluate(const iexpr& e, const int64_t* s) {
  auto a = [&](size_t i) { return evaluate(e.args[i], s); };
  switch (e.op) {
    case iop::constant: return e.value;
    case iop::slot: return s[e.slot];
    case iop::add: return a(0) + a(1);
    case iop::sub: return a(0) - a(1);
    case iop::mul: return a(0) * a(1);
    case iop::neg: return -a(0);
    case iop::div: return a(0) / a(1);  // exact or non-negative operands: truncation is right
    case iop::fdiv_q: return floor_div(a(0), a(1));
    case iop::pdiv_r: return a(0) % a(1);
    case iop::min: {  // isl's min and max take two or more arguments
      int64_t v = a(0);
      for (size_t i = 1; i < e.args.size(); ++i) v = std::min(v, a(i));
      return v;
    }
    case iop::max: {
      int64_t v = a(0);
      for (size_t i = 1; i < e.args.size(); ++i) v = std::max(v, a(i));
      return v;
    }
    case iop::land: {
      for (size_t i = 0; i < e.args.size(); ++i)
        if (!a(i)) return 0;
      return 1;
    }
    case iop::lor: {
      for (size_t i = 0; i < e.args.size(); ++i)
        if (a(i)) return 1;
      return 0;
    }
    case iop::eq: return a(0) == a(1);
    case iop::le: return a(0) <= a(1);
    case iop::lt: return a(0) < a(1);
    case iop::ge: return a(0) >= a(1);
    case iop::gt: return a(0) > a(1);
    case iop::select: return a(0) ? a(1) : a(2);
  }
  return 0;
}

compiled_part compile_part(const module_part& part, size_t tiles, size_t coords) {
  translator t(part.name, tiles, coords);
  compiled_part out;
  out.name = part.name;
  out.previous_tile = part.previous_tile;
  out.root = t.translate(part.program, &part, out.blocks);
  out.slots = t.slots();
  return out;
}

compiled_part compile_tiles(const program_node& tiles, size_t n) {
  translator t("tiles", n, 0);
  compiled_part out;
  out.name = "tiles";
  out.root = t.translate(tiles, nullptr, out.blocks);
  out.slots = t.slots();
  return out;
}

}  // namespace sadsl::exec
