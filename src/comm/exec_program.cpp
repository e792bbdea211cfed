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

// Sets e's affine form (iexpr::affine) when its code is affine in the slots.
void find_affine_form(iexpr& e) {
  struct form {
    int64_t constant = 0;
    std::map<int32_t, int64_t> terms;
  };
  std::vector<form> stack;
  for (const iinstr& i : e.code) {
    form b;
    if (i.op != iop::constant && i.op != iop::slot && i.op != iop::neg) {
      if (i.op != iop::add && i.op != iop::sub && i.op != iop::mul) return;
      b = std::move(stack.back());
      stack.pop_back();
    }
    switch (i.op) {
      case iop::constant: stack.push_back({i.value, {}}); break;
      case iop::slot: stack.push_back({0, {{i.target, 1}}}); break;
      case iop::neg:
      case iop::sub:
      case iop::add: {
        form& a = stack.back();
        int64_t sign = i.op == iop::add ? 1 : -1;
        if (i.op == iop::neg) b = std::move(a), a = form{};
        a.constant += sign * b.constant;
        for (auto [slot, c] : b.terms) a.terms[slot] += sign * c;
        break;
      }
      case iop::mul: {
        form& a = stack.back();
        if (!a.terms.empty() && !b.terms.empty()) return;
        if (a.terms.empty()) std::swap(a, b);  // a: the form with slots (if any); b: a constant
        a.constant *= b.constant;
        for (auto& [slot, c] : a.terms) c *= b.constant;
        break;
      }
      default: return;
    }
  }
  e.affine = true;
  e.constant = stack.back().constant;
  for (auto [slot, c] : stack.back().terms)
    if (c != 0) e.terms.emplace_back(slot, c);
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
    emit(e, out, 0);
    find_affine_form(out);
    if (!out.affine && !condition_form(e, out)) {
      out.condition.clear();
      out.terms.clear();
    }
    return out;
  }

  // Appends e's node to out.condition when e is a conjunction or disjunction of comparisons of
  // affine forms (false when it is not).
  bool condition_form(isl_ast_expr* e, iexpr& out) {
    if (isl_ast_expr_get_type(e) != isl_ast_expr_op) return false;
    isl_ast_expr_op_type type = isl_ast_expr_op_get_type(e);
    int n = isl_ast_expr_op_get_n_arg(e);
    auto with_arg = [&](int i, auto&& f) {
      isl_ast_expr* a = isl_ast_expr_op_get_arg(e, i);
      bool ok = f(a);
      isl_ast_expr_free(a);
      return ok;
    };
    size_t at = out.condition.size();
    out.condition.emplace_back();
    bool all = type == isl_ast_expr_op_and || type == isl_ast_expr_op_and_then;
    if (all || type == isl_ast_expr_op_or || type == isl_ast_expr_op_or_else) {
      out.condition[at].what = all ? cnode::kind::all : cnode::kind::any;
      for (int i = 0; i < n; ++i)
        if (!with_arg(i, [&](isl_ast_expr* a) { return condition_form(a, out); })) return false;
    } else {
      iop compare = type == isl_ast_expr_op_eq || type == isl_ast_expr_op_le || type == isl_ast_expr_op_lt ||
                            type == isl_ast_expr_op_ge || type == isl_ast_expr_op_gt
                        ? op_of(type)
                        : iop::constant;
      if (compare == iop::constant || n != 2) return false;
      iexpr lhs, rhs;  // the two sides' affine forms: lhs - rhs compares with 0
      with_arg(0, [&](isl_ast_expr* a) { return emit(a, lhs, 0), true; });
      with_arg(1, [&](isl_ast_expr* a) { return emit(a, rhs, 0), true; });
      find_affine_form(lhs);
      find_affine_form(rhs);
      if (!lhs.affine || !rhs.affine) return false;
      std::map<int32_t, int64_t> terms;
      for (auto [slot, c] : lhs.terms) terms[slot] += c;
      for (auto [slot, c] : rhs.terms) terms[slot] -= c;
      cnode& node = out.condition[at];
      node.compare = compare;
      node.constant = lhs.constant - rhs.constant;
      node.first = static_cast<uint32_t>(out.terms.size());
      for (auto [slot, c] : terms)
        if (c != 0) out.terms.emplace_back(slot, c);
      node.last = static_cast<uint32_t>(out.terms.size());
    }
    out.condition[at].end = static_cast<uint32_t>(out.condition.size());
    return true;
  }

  // Appends the code of e, run with `height` values already on the stack.
  void emit(isl_ast_expr* e, iexpr& out, int height) {
    out.depth = std::max(out.depth, height + 1);
    switch (isl_ast_expr_get_type(e)) {
      case isl_ast_expr_int: {
        isl_val* v = isl_ast_expr_get_val(e);
        out.code.push_back({iop::constant, 0, isl_val_get_num_si(v)});
        isl_val_free(v);
        return;
      }
      case isl_ast_expr_id: {
        // Only the parameters and the loops around have values: anything else would read a slot
        // nothing wrote.
        std::string name = id_name(e);
        SADSL_INTERNAL_ASSERT(in_scope_.count(name),
                              fmt::format("the program of part {} uses {} where it has no value", part_, name));
        out.code.push_back({iop::slot, slot_of(name), 0});
        return;
      }
      case isl_ast_expr_op: break;
      default: SADSL_INTERNAL_ASSERT(false, "unexpected isl AST expression");
    }
    auto arg = [&](int i, int at) {
      isl_ast_expr* a = isl_ast_expr_op_get_arg(e, i);
      emit(a, out, at);
      isl_ast_expr_free(a);
    };
    auto here = [&] { return static_cast<int32_t>(out.code.size()); };
    int n = isl_ast_expr_op_get_n_arg(e);
    isl_ast_expr_op_type type = isl_ast_expr_op_get_type(e);
    bool conjunction = type == isl_ast_expr_op_and || type == isl_ast_expr_op_and_then;
    if (conjunction || type == isl_ast_expr_op_or || type == isl_ast_expr_op_or_else) {
      // The first false (true) operand decides: it stays on the stack and the rest is skipped.
      std::vector<size_t> exits;
      for (int i = 0; i < n; ++i) {
        arg(i, height);
        out.code.push_back({iop::truth, 0, 0});
        if (i + 1 == n) break;
        exits.push_back(out.code.size());
        out.code.push_back({conjunction ? iop::keep_jump_unless : iop::keep_jump_if, 0, 0});
      }
      for (size_t x : exits) out.code[x].target = here();
      return;
    }
    if (type == isl_ast_expr_op_cond || type == isl_ast_expr_op_select) {
      arg(0, height);
      size_t to_else = out.code.size();
      out.code.push_back({iop::jump_unless_pop, 0, 0});
      arg(1, height);
      size_t to_end = out.code.size();
      out.code.push_back({iop::jump, 0, 0});
      out.code[to_else].target = here();
      arg(2, height);
      out.code[to_end].target = here();
      return;
    }
    iop kind = op_of(type);
    arg(0, height);
    if (kind == iop::neg) {
      out.code.push_back({iop::neg, 0, 0});
      return;
    }
    for (int i = 1; i < n; ++i) {  // isl's min and max take two or more arguments
      arg(i, height + 1);
      out.code.push_back({kind, 0, 0});
    }
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
        hoist_bound(n.cond->get(), n.iterator, out);
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
  // cond = `iterator <= e` or `iterator < e` where e does not use the iterator: e is the bound.
  void hoist_bound(isl_ast_expr* cond, const std::string& iterator, node& out) {
    if (isl_ast_expr_get_type(cond) != isl_ast_expr_op) return;
    isl_ast_expr_op_type type = isl_ast_expr_op_get_type(cond);
    if (type != isl_ast_expr_op_le && type != isl_ast_expr_op_lt) return;
    isl_ast_expr* lhs = isl_ast_expr_op_get_arg(cond, 0);
    isl_ast_expr* rhs = isl_ast_expr_op_get_arg(cond, 1);
    if (isl_ast_expr_get_type(lhs) == isl_ast_expr_id && id_name(lhs) == iterator &&
        !mentions_id(rhs, [&](const char* name) { return iterator == name; })) {
      out.hoisted = true;
      out.strict = type == isl_ast_expr_op_lt;
      out.bound = expr(rhs);
    }
    isl_ast_expr_free(lhs);
    isl_ast_expr_free(rhs);
  }

  compiled_block compile_block(const op_block& b) {
    compiled_block out;
    out.statement_index = b.statement_index;
    for (const auto& op : b.ops) {
      compiled_op c;
      c.what = op.what, c.port = op.port, c.buffer = op.buffer, c.slot = op.slot, c.lanes = op.lanes, c.vector = op.vector;
      c.from_statement = op.from_statement, c.from_slot = op.from_slot;
      if (op.lane) c.has_lane = true, c.lane = expr(*op.lane);
      if (op.when) c.has_when = true, c.when = expr(*op.when);
      for (const auto& x : op.index) c.index.push_back(expr(x));
      out.ops.push_back(std::move(c));
    }
    return out;
  }

  static iop op_of(isl_ast_expr_op_type t) {
    switch (t) {
      case isl_ast_expr_op_max: return iop::max;
      case isl_ast_expr_op_min: return iop::min;
      case isl_ast_expr_op_minus: return iop::neg;
      case isl_ast_expr_op_add: return iop::add;
      case isl_ast_expr_op_sub: return iop::sub;
      case isl_ast_expr_op_mul: return iop::mul;
      case isl_ast_expr_op_div: case isl_ast_expr_op_pdiv_q: return iop::div;
      case isl_ast_expr_op_fdiv_q: return iop::fdiv_q;
      case isl_ast_expr_op_pdiv_r: case isl_ast_expr_op_zdiv_r: return iop::pdiv_r;
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

int64_t run_code(const iexpr& e, const int64_t* s) {
  const iinstr* code = e.code.data();
  size_t n = e.code.size();
  int64_t small[32];
  small[0] = 0;  // (every code pushes before it reads; this tells the compiler so)
  std::vector<int64_t> large;
  int64_t* st = small;
  if (e.depth > 32) {
    large.resize(static_cast<size_t>(e.depth));
    st = large.data();
  }
  int top = -1;
  for (size_t pc = 0; pc < n; ++pc) {
    const iinstr& i = code[pc];
    switch (i.op) {
      case iop::constant: st[++top] = i.value; break;
      case iop::slot: st[++top] = s[i.target]; break;
      case iop::add: --top, st[top] += st[top + 1]; break;
      case iop::sub: --top, st[top] -= st[top + 1]; break;
      case iop::mul: --top, st[top] *= st[top + 1]; break;
      case iop::div: --top, st[top] /= st[top + 1]; break;  // exact or non-negative operands: truncation is right
      case iop::fdiv_q: --top, st[top] = floor_div(st[top], st[top + 1]); break;
      case iop::pdiv_r: --top, st[top] %= st[top + 1]; break;
      case iop::min: --top, st[top] = std::min(st[top], st[top + 1]); break;
      case iop::max: --top, st[top] = std::max(st[top], st[top + 1]); break;
      case iop::eq: --top, st[top] = st[top] == st[top + 1]; break;
      case iop::le: --top, st[top] = st[top] <= st[top + 1]; break;
      case iop::lt: --top, st[top] = st[top] < st[top + 1]; break;
      case iop::ge: --top, st[top] = st[top] >= st[top + 1]; break;
      case iop::gt: --top, st[top] = st[top] > st[top + 1]; break;
      case iop::neg: st[top] = -st[top]; break;
      case iop::truth: st[top] = st[top] != 0; break;
      // Jumps go forward: the loop's ++pc lands on the target.
      case iop::jump: pc = static_cast<size_t>(i.target) - 1; break;
      case iop::jump_unless_pop:
        if (st[top--] == 0) pc = static_cast<size_t>(i.target) - 1;
        break;
      case iop::keep_jump_unless:
        if (st[top] == 0) pc = static_cast<size_t>(i.target) - 1;
        else --top;
        break;
      case iop::keep_jump_if:
        if (st[top] != 0) pc = static_cast<size_t>(i.target) - 1;
        else --top;
        break;
    }
  }
  return st[0];
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
