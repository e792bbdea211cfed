// Recording a statement: collect its loops and guards, add the implicit initialization of an
// output accumulated with op=, and check everything the user can get wrong, with isl where a
// proof is needed (empty domains, accesses that can leave a tensor's extent).
#include <algorithm>

#include <fmt/format.h>

#include "kernel_state.hpp"
#include "sadsl/dsl/to_isl.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace detail {
namespace {

std::string access_text(const tensor_node& t, const std::vector<affine>& index) {
  std::vector<std::string> idx;
  for (const auto& a : index) idx.push_back(a.str());
  return fmt::format("{}({})", t.name, fmt::join(idx, ", "));
}

void sort_by_declaration(std::vector<symbol_ptr>& loops) {
  std::sort(loops.begin(), loops.end(), [](const symbol_ptr& a, const symbol_ptr& b) { return a->seq < b->seq; });
  loops.erase(std::unique(loops.begin(), loops.end()), loops.end());
}

// Adds every loop the given loops' bounds depend on, transitively; declaration order.
void close_over_bounds(std::vector<symbol_ptr>& loops) {
  for (size_t i = 0; i < loops.size(); ++i)
    for (const affine* b : {&loops[i]->lo, &loops[i]->hi})
      for (const auto& l : b->loops())
        if (std::find(loops.begin(), loops.end(), l) == loops.end()) loops.push_back(l);
  sort_by_declaration(loops);
}

bool contains(const std::vector<symbol_ptr>& v, const symbol_ptr& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool uses_loop(const symbol_node& l, const symbol_ptr& other) {
  for (const affine* b : {&l.lo, &l.hi})
    if (contains(b->loops(), other)) return true;
  return false;
}

bool loops_within(const condition& c, const std::vector<symbol_ptr>& loops) {
  for (const auto& k : c.constraints())
    for (const auto& l : k.expr.loops())
      if (!contains(loops, l)) return false;
  return true;
}

expr identity_of(update_op op) { return op == update_op::mul ? expr(1) : expr(0); }

const char* op_text(update_op op) {
  switch (op) {
    case update_op::assign: return "=";
    case update_op::add: return "+=";
    case update_op::sub: return "-=";
    case update_op::mul: return "*=";
  }
  return "?";
}

}  // namespace

namespace {

// All checks and derivations of one `record` call, with the user's location at hand.
class recorder {
public:
  recorder(kernel_state& k, const std::source_location& where) : k_(k), where_(where) {}

  void run(const tensor_ptr& lhs, const std::vector<affine>& index, update_op op, const expr& rhs) {
    check_tensor(*lhs);
    if (lhs->role == tensor_role::input)
      fail(fmt::format("writing input tensor \"{}\" in {} {} ...; declare it output or inout", lhs->name,
                       access_text(*lhs, index), op_text(op)));
    check_access(*lhs, index);
    for_each_read(*rhs.node(), [&](const expr_node& r) {
      check_tensor(*r.tensor);
      check_access(*r.tensor, r.index);
    });
    if (!rhs.is_literal() && rhs.type() != lhs->type)
      fail(fmt::format("assigning {} expression to {} tensor \"{}\" without a cast: {} {} {}; use cast<{}>(...)",
                       with_article(rhs.type()), type_name(lhs->type), lhs->name, access_text(*lhs, index), op_text(op),
                       rhs.str(), type_name(lhs->type)));

    statement_record s;
    s.where = where_;
    s.lhs = lhs;
    s.lhs_index = index;
    s.op = op;
    s.rhs = expr(with_type(rhs.node(), lhs->type));
    collect_loops(s, rhs);
    if (op != update_op::assign) s.reduction_loops = reduction_loops(s);

    bool needs_init = op != update_op::assign && !k_.written.count(lhs.get()) &&
                      (lhs->role == tensor_role::output || lhs->role == tensor_role::local);
    if (needs_init) add(implicit_init(s));
    add(std::move(s));
    k_.written.insert(lhs.get());
  }

private:
  [[noreturn]] void fail(const std::string& msg) const { throw error(msg, where_); }

  void check_tensor(const tensor_node& t) const {
    if (t.kernel_id != k_.id)
      fail(fmt::format("tensor \"{}\" belongs to another kernel, not to kernel \"{}\"", t.name, k_.name));
  }

  void check_symbols(const affine& a, const std::string& what) const {
    for (const auto& term : a.terms())
      if (term.symbol->kind == symbol_kind::param && term.symbol->kernel_id != k_.id)
        fail(fmt::format("{} uses param \"{}\" of kernel \"{}\" in kernel \"{}\"", what, term.symbol->name,
                         term.symbol->kernel_name, k_.name));
  }

  void check_access(const tensor_node& t, const std::vector<affine>& index) const {
    std::string text = access_text(t, index);
    if (index.size() != t.extents.size())
      fail(fmt::format("tensor \"{}\" indexed with {} indices but has {} dimensions: {}", t.name, index.size(),
                       t.extents.size(), text));
    for (size_t d = 0; d < index.size(); ++d) {
      if (!index[d].is_affine())
        fail(fmt::format("index {} of {} is not affine: {}", d, text, index[d].nonaffine_text()));
      check_symbols(index[d], fmt::format("index {} of {}", d, text));
    }
  }

  // The statement's loops: those it indexes, those of its enclosing scopes, and those their bounds
  // depend on; outermost (first declared) first.
  void collect_loops(statement_record& s, const expr& rhs) {
    std::vector<symbol_ptr> loops;
    for (const auto& a : s.lhs_index)
      for (const auto& l : a.loops()) loops.push_back(l);
    for_each_read(*rhs.node(), [&](const expr_node& r) {
      for (const auto& a : r.index)
        for (const auto& l : a.loops()) loops.push_back(l);
    });
    symbol_ptr enclosing;
    for (const auto& scope : active_scopes()) {
      if (scope.under) {
        // Loops nest in declaration order; an under() inside another must follow that order.
        if (enclosing && scope.under->seq < enclosing->seq)
          throw error(fmt::format("loop \"{}\" is placed under loop \"{}\", but loops nest in declaration order "
                                  "and \"{}\" is declared first{}",
                                  scope.under->name, enclosing->name, scope.under->name,
                                  uses_loop(*enclosing, scope.under) ? fmt::format(" (the bounds of \"{}\" use it)", enclosing->name) : ""),
                      scope.where);
        enclosing = scope.under;
        loops.push_back(scope.under);
      }
      if (!scope.g) continue;
      for (const auto& c : scope.g->cond.constraints()) {
        check_symbols(c.expr, fmt::format("condition \"{}\"", scope.g->cond.str()));
        for (const auto& l : c.expr.loops()) loops.push_back(l);
      }
      s.guards.push_back(*scope.g);
    }
    close_over_bounds(loops);
    for (const auto& l : loops) adopt(l);
    s.loops = std::move(loops);
  }

  void adopt(const symbol_ptr& l) {
    if (l->kernel_id >= 0 && l->kernel_id != k_.id)
      fail(fmt::format("loop \"{}\" (declared at {}) belongs to kernel \"{}\" but is used in kernel \"{}\"", l->name,
                       format_location(l->where), l->kernel_name, k_.name));
    if (contains(k_.loops, l)) return;
    check_symbols(l->lo, fmt::format("lower bound of loop \"{}\"", l->name));
    check_symbols(l->hi, fmt::format("upper bound of loop \"{}\"", l->name));
    k_.claim_name(l->name, "loop", l->where);
    l->kernel_id = k_.id;
    l->kernel_name = k_.name;
    k_.loops.push_back(l);
    sort_by_declaration(k_.loops);
  }

  // Loops the statement runs over that do not index its lhs: it accumulates over them.
  std::vector<symbol_ptr> reduction_loops(const statement_record& s) const {
    std::vector<symbol_ptr> lhs_loops;
    for (const auto& a : s.lhs_index)
      for (const auto& l : a.loops()) lhs_loops.push_back(l);
    std::vector<symbol_ptr> out;
    for (const auto& l : s.loops)
      if (!contains(lhs_loops, l)) out.push_back(l);
    return out;
  }

  // lhs = identity over the loops that index lhs, before the first op= (Halide's pure definition).
  statement_record implicit_init(const statement_record& s) const {
    statement_record init;
    init.where = s.where;
    init.lhs = s.lhs;
    init.lhs_index = s.lhs_index;
    init.op = update_op::assign;
    init.rhs = expr(with_type(identity_of(s.op).node(), s.lhs->type));
    init.implicit_init = true;
    for (const auto& l : s.loops)
      if (!contains(s.reduction_loops, l)) init.loops.push_back(l);
    // The initialization runs once per lhs element, outside the reduction: it cannot live under a
    // loop whose bounds need a reduction loop.
    for (const auto& l : init.loops)
      for (const affine* b : {&l->lo, &l->hi})
        for (const auto& r : b->loops())
          if (contains(s.reduction_loops, r))
            fail(fmt::format("cannot initialize {} tensor \"{}\" for {}: the bounds of loop \"{}\" depend on "
                             "reduction loop \"{}\"; declare \"{}\" inout and initialize it explicitly",
                             role_name(s.lhs->role), s.lhs->name, s.str(), l->name, r->name, s.lhs->name));
    for (const auto& g : s.guards)
      if (loops_within(g.cond, init.loops)) init.guards.push_back(g);
    return init;
  }

  void add(statement_record s) {
    s.id = statement_id(next_identity_key(), fmt::format("S{}", k_.statements.size()));
    check_domain(s);
    k_.statements.push_back(std::move(s));
  }

  void check_domain(const statement_record& s) const {
    isl_builder b(k_.ctx, k_.params);
    isl::set context = b.param_context();
    isl::set dom = b.statement_domain(s).intersect_params(context);
    if (dom.is_empty())
      fail(fmt::format("statement {} has an empty iteration domain for every value of the params", s.str()));
    check_in_bounds(b, s, dom, *s.lhs, s.lhs_index);
    for_each_read(*s.rhs.node(), [&](const expr_node& r) { check_in_bounds(b, s, dom, *r.tensor, r.index); });
  }

  void check_in_bounds(const isl_builder& b, const statement_record& s, const isl::set& dom, const tensor_node& t,
                       const std::vector<affine>& index) const {
    isl::set image = b.access_relation(s, t, index).intersect_domain(dom).range();
    for (size_t d = 0; d < index.size(); ++d) {
      std::string extent = t.extents[d].str();
      if (!image.intersect(b.tensor_outside(t, static_cast<int>(d), false)).is_empty())
        fail(fmt::format("access {} can leave tensor \"{}\": index {} ({}) can be negative", access_text(t, index),
                         t.name, d, index[d].str()));
      if (!image.intersect(b.tensor_outside(t, static_cast<int>(d), true)).is_empty())
        fail(fmt::format("access {} can leave tensor \"{}\": index {} ({}) can reach {}, past its extent {}",
                         access_text(t, index), t.name, d, index[d].str(), extent, extent));
    }
  }

  kernel_state& k_;
  std::source_location where_;
};

}  // namespace

void kernel_state::record(const tensor_ptr& lhs, const std::vector<affine>& index, update_op op, const expr& rhs,
                          const std::source_location& where) {
  try {
    recorder(*this, where).run(lhs, index, op, rhs);
  } catch (const isl::exception& e) {
    throw internal_error(fmt::format("isl failed while recording a statement of kernel \"{}\" at {}: {}", name,
                                     format_location(where), e.what()));
  }
}

}  // namespace detail

expr statement_record::value() const {
  if (op == update_op::assign) return rhs;
  expr current = read_of(lhs, lhs_index, where);
  switch (op) {
    case update_op::add: return current + rhs;
    case update_op::sub: return current - rhs;
    default: return current * rhs;
  }
}

std::string statement_record::str() const {
  return fmt::format("{} {} {}", detail::access_text(*lhs, lhs_index), detail::op_text(op), rhs.str());
}

}  // namespace sadsl
