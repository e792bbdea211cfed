// sadsl's own generator of module programs (loop_generator.hpp).
#include "loop_generator.hpp"

#include "isl_util.hpp"
#include "loop_statement.hpp"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

namespace sadsl::comm_detail {

namespace {

// The d-th iterator's name: c0, c1, ..
std::string iterator_name(int d) {
  std::string name = "c";
  name += std::to_string(d);
  return name;
}

// AST expressions over the iterators c0.. (those in scope) and the parameters.
class expr_writer {
public:
  // fixed: the parameters the context fixes (the problem sizes), written as their values.
  expr_writer(isl_ctx* ctx, int dims, std::map<std::string, int64_t> fixed) : ctx_(ctx), fixed_(std::move(fixed)) {
    for (int d = 0; d < dims; ++d) iterators_.push_back(isl::manage(isl_id_alloc(ctx, iterator_name(d).c_str(), nullptr)));
  }

  std::vector<bool> scope;  // the dimensions that are loops around the current node

  isl::ast_expr iterator(int d) const { return isl::manage(isl_ast_expr_from_id(iterators_.at(static_cast<size_t>(d)).copy())); }
  isl::ast_expr number(int64_t v) const { return isl::manage(isl_ast_expr_from_val(isl_val_int_from_si(ctx_, v))); }

  // An affine function without existential variables and with integer coefficients.
  isl::ast_expr aff(isl_aff* a) const {
    require(isl_aff_dim(a, isl_dim_div) == 0);
    require(integer(isl_aff_get_denominator_val(a)) == 1);
    std::vector<std::pair<int64_t, isl::ast_expr>> terms;
    int64_t constant = integer(isl_aff_get_constant_val(a));
    params(terms, constant, isl_aff_get_domain_local_space(a),
           [&](int i) { return isl_aff_get_coefficient_val(a, isl_dim_param, i); });
    collect(terms, isl_aff_dim(a, isl_dim_in), [&](int i) { return isl_aff_get_coefficient_val(a, isl_dim_in, i); },
            [&](int i) { return in_scope(i); });
    return sum(terms, constant);
  }

  // `positive terms >= negative terms` (or `==`) for a constraint without existential variables.
  isl::ast_expr constraint(isl_constraint* c) const {
    std::vector<std::pair<int64_t, isl::ast_expr>> terms;
    isl_local_space* ls = isl_constraint_get_local_space(c);
    int divs = isl_local_space_dim(ls, isl_dim_div);
    isl_local_space_free(ls);
    require(divs == 0);
    int dims = isl_constraint_dim(c, isl_dim_set);
    int64_t constant = integer(isl_constraint_get_constant_val(c));
    params(terms, constant, isl_constraint_get_local_space(c),
           [&](int i) { return isl_constraint_get_coefficient_val(c, isl_dim_param, i); });
    collect(terms, dims, [&](int i) { return isl_constraint_get_coefficient_val(c, isl_dim_set, i); },
            [&](int i) { return in_scope(i); });
    std::vector<std::pair<int64_t, isl::ast_expr>> pos, neg;
    for (auto& [k, e] : terms) (k > 0 ? pos : neg).push_back({k > 0 ? k : -k, e});
    isl::ast_expr lhs = sum(pos, constant > 0 ? constant : 0), rhs = sum(neg, constant < 0 ? -constant : 0);
    if (isl_constraint_is_equality(c) == isl_bool_true) return isl::manage(isl_ast_expr_eq(lhs.release(), rhs.release()));
    // `x + y <= 7` rather than `7 >= x + y`.
    if (pos.empty()) return isl::manage(isl_ast_expr_le(rhs.release(), lhs.release()));
    return isl::manage(isl_ast_expr_ge(lhs.release(), rhs.release()));
  }

  // The conjunction of a basic set's constraints (1 when there is none), those on parameters
  // first, then by the innermost dimension they involve.
  isl::ast_expr conjunction(isl_basic_set* b) const {
    std::vector<std::pair<int, isl::ast_expr>> parts;
    struct data {
      const expr_writer* self;
      std::vector<std::pair<int, isl::ast_expr>>* parts;
      bool failed = false;
    } d{this, &parts};
    isl_basic_set_foreach_constraint(
        b,
        [](isl_constraint* c, void* user) -> isl_stat {
          auto* d = static_cast<data*>(user);
          try {  // no exception may cross isl's C frames
            d->parts->push_back({level_of(c, isl_constraint_dim(c, isl_dim_set)), d->self->constraint(c)});
          } catch (...) {
            d->failed = true;
          }
          isl_constraint_free(c);
          return d->failed ? isl_stat_error : isl_stat_ok;
        },
        &d);
    require(!d.failed);
    std::stable_sort(parts.begin(), parts.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<isl::ast_expr> in_order;
    for (auto& p : parts) in_order.push_back(p.second);
    return all(in_order);
  }

  isl::ast_expr all(const std::vector<isl::ast_expr>& parts) const {
    if (parts.empty()) return number(1);
    isl::ast_expr out = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) out = isl::manage(isl_ast_expr_and(out.release(), parts[i].copy()));
    return out;
  }

private:
  isl_ctx* ctx_;
  std::map<std::string, int64_t> fixed_;
  std::vector<isl::id> iterators_;

  // The terms of the parameters in `ls`, a fixed one's value added to `constant`.
  template <class Coefficient>
  void params(std::vector<std::pair<int64_t, isl::ast_expr>>& terms, int64_t& constant, isl_local_space* ls,
              Coefficient coefficient) const {
    int n = isl_local_space_dim(ls, isl_dim_param);
    for (int i = 0; i < n; ++i) {
      int64_t k = integer(coefficient(i));
      if (k == 0) continue;
      isl_id* id = isl_local_space_get_dim_id(ls, isl_dim_param, static_cast<unsigned>(i));
      auto f = fixed_.find(isl_id_get_name(id));
      if (f != fixed_.end()) {
        constant += k * f->second;
        isl_id_free(id);
      } else {
        terms.push_back({k, isl::manage(isl_ast_expr_from_id(id))});
      }
    }
    isl_local_space_free(ls);
  }

  isl::ast_expr in_scope(int d) const {
    require(static_cast<size_t>(d) < scope.size() && scope[static_cast<size_t>(d)]);
    return iterator(d);
  }

  template <class Coefficient, class Variable>
  static void collect(std::vector<std::pair<int64_t, isl::ast_expr>>& terms, int n, Coefficient coefficient,
                      Variable variable) {
    for (int i = 0; i < n; ++i)
      if (int64_t k = integer(coefficient(i)); k != 0) terms.push_back({k, variable(i)});
  }

  // t1 + 2 * t2 - t3 + 4 (signed coefficients).
  isl::ast_expr sum(const std::vector<std::pair<int64_t, isl::ast_expr>>& terms, int64_t constant) const {
    isl_ast_expr* out = nullptr;
    for (const auto& [k, e] : terms) {
      int64_t m = k < 0 ? -k : k;
      if (!out) {  // the first term carries its sign: -x, -3 * x
        out = m == 1 ? (k < 0 ? isl_ast_expr_neg(e.copy()) : e.copy()) : isl_ast_expr_mul(number(k).release(), e.copy());
        continue;
      }
      isl_ast_expr* t = m == 1 ? e.copy() : isl_ast_expr_mul(number(m).release(), e.copy());
      out = k < 0 ? isl_ast_expr_sub(out, t) : isl_ast_expr_add(out, t);
    }
    if (!out) return number(constant);
    if (constant > 0) out = isl_ast_expr_add(out, number(constant).release());
    if (constant < 0) out = isl_ast_expr_sub(out, number(-constant).release());
    return isl::manage(out);
  }
};

// The expressions of one call: sets and functions over its statement's points. Simplified on
// the intervals of the integer analysis when they suffice, with isl's gist otherwise.
class call_expressions : public expression_maker {
public:
  call_expressions(const expr_writer& w, const statement& s) : w_(w), s_(s) {}

  // The disjunction of the conjunctions of the set's basic sets (0 when it is empty).
  isl::ast_expr condition(const isl::set& on_schedule) const override {
    if (auto b = condition_on_box(s_, on_schedule)) {
      if (isl_basic_set_plain_is_empty(b->get()) == isl_bool_true) return w_.number(0);
      try {
        return w_.conjunction(b->get());
      } catch (const not_simple&) {  // a dimension the statement defines: gist writes it without
      }
    }
    isl::set s = isl::manage(isl_set_coalesce(isl_set_gist(on_schedule.copy(), s_.domain().copy())));
    std::vector<isl::basic_set> pieces;
    isl_set_foreach_basic_set(
        s.get(),
        [](isl_basic_set* b, void* user) -> isl_stat {
          static_cast<std::vector<isl::basic_set>*>(user)->push_back(isl::manage(b));
          return isl_stat_ok;
        },
        &pieces);
    if (pieces.empty()) return w_.number(0);
    isl::ast_expr out = w_.conjunction(pieces[0].get());
    for (size_t i = 1; i < pieces.size(); ++i)
      out = isl::manage(isl_ast_expr_or(out.release(), w_.conjunction(pieces[i].get()).release()));
    return out;
  }

  // A function of one piece without existential variables is written as it is: its domain
  // holds the statement's points (an operation's function is defined on every instance), and the
  // iterators it was pulled back through are in the loops' terms already. Others are gisted.
  isl::ast_expr value(const isl::pw_aff& on_schedule) const override {
    if (isl_pw_aff_n_piece(on_schedule.get()) == 1) {
      isl::aff only = isl::manage(comm_isl::only_piece(on_schedule.copy()));
      try {
        return w_.aff(only.get());
      } catch (const not_simple&) {  // existential variables, or a dimension out of scope
      }
    }
    isl_aff* a = comm_isl::only_piece(isl_pw_aff_coalesce(isl_pw_aff_gist(on_schedule.copy(), s_.domain().copy())));
    require(a != nullptr);
    try {
      isl::ast_expr e = w_.aff(a);
      isl_aff_free(a);
      return e;
    } catch (...) {
      isl_aff_free(a);
      throw;
    }
  }

private:
  const expr_writer& w_;
  const statement& s_;
};

// A statement in a group, with the dimensions it is fixed at inside another statement's loop.
struct member {
  const statement* s;
  std::vector<isl::basic_set> guards;  // its parameter constraints not yet tested around it
  std::vector<std::pair<int, int64_t>> merged;
};

class generator {
public:
  generator(isl_ctx* ctx, int dims, std::map<std::string, int64_t> fixed, const block_maker& maker,
            std::vector<op_block>& blocks)
      : w_(ctx, dims, std::move(fixed)), dims_(dims), maker_(maker), blocks_(blocks) {
    w_.scope.assign(static_cast<size_t>(dims), false);
  }

  // The program of `group` from dimension d on, inside a guard of the parameter constraints all
  // its statements share (isl's way: a module whose statements run in some tiles only tests
  // that once, not in every iteration of its loops).
  program_node build(int d, std::vector<member> group) {
    if (d == dims_) return build_loops(d, std::move(group));  // the call tests all its guards at once
    std::vector<isl::basic_set> shared = shared_guards(group);
    if (shared.empty()) return build_loops(d, std::move(group));
    program_node g;
    g.what = program_node::kind::guard;
    std::vector<isl::ast_expr> tests;
    for (const auto& b : shared) tests.push_back(w_.conjunction(b.get()));
    g.cond = w_.all(tests);
    g.body.push_back(build_loops(d, std::move(group)));
    return g;
  }

  // Removes the guards every member has from the members, and returns them.
  static std::vector<isl::basic_set> shared_guards(std::vector<member>& group) {
    std::vector<isl::basic_set> shared;
    auto has = [](const member& m, const isl::basic_set& b) {
      for (const auto& g : m.guards)
        if (isl_basic_set_plain_is_equal(g.get(), b.get()) == isl_bool_true) return true;
      return false;
    };
    for (const auto& b : group.front().guards) {
      bool everywhere = true;
      for (const auto& m : group) everywhere = everywhere && has(m, b);
      if (everywhere) shared.push_back(b);
    }
    for (auto& m : group) {
      std::vector<isl::basic_set> rest;
      for (const auto& g : m.guards) {
        bool is_shared = false;
        for (const auto& b : shared) is_shared = is_shared || isl_basic_set_plain_is_equal(g.get(), b.get()) == isl_bool_true;
        if (!is_shared) rest.push_back(g);
      }
      m.guards = std::move(rest);
    }
    return shared;
  }

  program_node build_loops(int d, std::vector<member> group) {
    if (d == dims_) {
      require(group.size() == 1);  // two statements at one schedule point: isl orders them
      return call(group[0]);
    }
    auto at = static_cast<size_t>(d);
    // A dimension the statement defines as a function of the outer ones is no loop (its value
    // appears in the calls and expressions, written without it).
    size_t defined = 0;
    for (const auto& m : group) defined += m.s->defined[at] ? 1 : 0;
    if (defined == 1 && group.size() == 1) return build(d + 1, std::move(group));
    require(defined == 0);  // several statements: their order would depend on the values
    const statement* loop = nullptr;
    for (const auto& m : group)
      if (!m.s->fixed[at]) loop = m.s;
    if (!loop) return fixed_dimension(d, std::move(group));
    for (auto& m : group) {
      if (m.s->fixed[at]) {
        require(inside_loop(*m.s, *loop, d));
        m.merged.push_back({d, *m.s->fixed[at]});
      } else {
        require(isl_aff_plain_is_equal(m.s->lower[at]->get(), loop->lower[at]->get()) == isl_bool_true &&
                isl_aff_plain_is_equal(m.s->upper[at]->get(), loop->upper[at]->get()) == isl_bool_true);
      }
    }
    program_node n;
    n.what = program_node::kind::loop;
    n.iterator = iterator_name(d);
    n.init = w_.aff(loop->lower[at]->get());
    n.cond = isl::manage(isl_ast_expr_le(w_.iterator(d).release(), w_.aff(loop->upper[at]->get()).release()));
    n.inc = w_.number(1);
    w_.scope[at] = true;
    n.body.push_back(build(d + 1, std::move(group)));
    w_.scope[at] = false;
    return n;
  }

private:
  expr_writer w_;
  int dims_;
  const block_maker& maker_;
  std::vector<op_block>& blocks_;

  // Every statement of the group is fixed at d: a sequence by value.
  program_node fixed_dimension(int d, std::vector<member> group) {
    auto at = static_cast<size_t>(d);
    std::stable_sort(group.begin(), group.end(),
                     [&](const member& a, const member& b) { return *a.s->fixed[at] < *b.s->fixed[at]; });
    program_node seq;
    for (size_t i = 0; i < group.size();) {
      size_t j = i;
      while (j < group.size() && *group[j].s->fixed[at] == *group[i].s->fixed[at]) ++j;
      seq.body.push_back(build(d + 1, std::vector<member>(group.begin() + static_cast<std::ptrdiff_t>(i),
                                                          group.begin() + static_cast<std::ptrdiff_t>(j))));
      i = j;
    }
    if (seq.body.size() == 1) return std::move(seq.body[0]);
    return seq;
  }

  // Every point of `fixed` lies within the bounds `loop` gives dimension d.
  static bool inside_loop(const statement& fixed, const statement& loop, int d) {
    auto at = static_cast<size_t>(d);
    isl_basic_set* range = isl_basic_set_intersect(loop.bounds[2 * at]->copy(), loop.bounds[2 * at + 1]->copy());
    isl_bool inside = isl_set_is_subset(fixed.points.get(), isl::manage(isl_set_from_basic_set(range)).get());
    return inside == isl_bool_true;
  }

  program_node call(const member& m) {
    const statement& s = *m.s;
    program_node c;
    c.what = program_node::kind::call;
    isl_ast_expr_list* args = isl_ast_expr_list_alloc(isl_id_get_ctx(s.id.get()), 4);
    int n = static_cast<int>(isl_pw_multi_aff_dim(s.iterators.get(), isl_dim_out));
    for (int i = 0; i < n; ++i) {
      isl_aff* a = comm_isl::only_piece(isl_pw_multi_aff_get_at(s.iterators.get(), i));
      try {
        require(a != nullptr);
        args = isl_ast_expr_list_add(args, w_.aff(a).release());
      } catch (...) {
        isl_aff_free(a);
        isl_ast_expr_list_free(args);
        throw;
      }
      isl_aff_free(a);
    }
    c.call = isl::manage(isl_ast_expr_call(isl_ast_expr_from_id(s.id.copy()), args));
    call_expressions exprs(w_, s);
    blocks_.push_back(maker_(s.name, node_context(&exprs, s.iterators)));
    c.block = static_cast<int>(blocks_.size()) - 1;
    std::vector<isl::ast_expr> guard;
    for (const auto& g : m.guards) guard.push_back(w_.conjunction(g.get()));
    for (const auto& [d, v] : m.merged)
      guard.push_back(isl::manage(isl_ast_expr_eq(w_.iterator(d).release(), w_.number(v).release())));
    if (guard.empty()) return c;
    program_node g;
    g.what = program_node::kind::guard;
    g.cond = w_.all(guard);
    g.body.push_back(std::move(c));
    return g;
  }
};

// The parameters the context fixes to a value.
std::map<std::string, int64_t> fixed_params(const isl::set& context) {
  std::map<std::string, int64_t> out;
  int n = static_cast<int>(isl_set_dim(context.get(), isl_dim_param));
  for (int i = 0; i < n; ++i) {
    isl_val* v = isl_set_plain_get_val_if_fixed(context.get(), isl_dim_param, static_cast<unsigned>(i));
    if (v && isl_val_is_int(v) == isl_bool_true) out[isl_set_get_dim_name(context.get(), isl_dim_param, static_cast<unsigned>(i))] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  return out;
}

}  // namespace

std::optional<program_node> simple_program(const isl::union_map& schedule, const isl::set& context,
                                           const block_maker& maker, std::vector<op_block>& blocks) {
  try {
    struct data {
      std::vector<statement> statements;
      const isl::set* context;
    } d{{}, &context};
    isl_stat ok = isl_union_map_foreach_map(
        schedule.get(),
        [](isl_map* m, void* user) -> isl_stat {
          auto* d = static_cast<data*>(user);
          isl::map map = isl::manage(m);
          try {  // no exception may cross isl's C frames
            d->statements.push_back(analyse(map, *d->context));
          } catch (...) {
            return isl_stat_error;
          }
          return isl_stat_ok;
        },
        &d);
    std::vector<statement>& statements = d.statements;
    require(ok == isl_stat_ok && !statements.empty());
    // isl_union_map_foreach_map visits maps in no fixed order: by name, for a deterministic program.
    std::sort(statements.begin(), statements.end(), [](const statement& a, const statement& b) { return a.name < b.name; });
    int dims = static_cast<int>(statements[0].fixed.size());
    for (const auto& s : statements) require(static_cast<int>(s.fixed.size()) == dims);
    std::vector<member> group;
    for (const auto& s : statements) group.push_back({&s, s.guards, {}});
    size_t first_block = blocks.size();
    try {
      generator g(schedule.ctx().get(), dims, fixed_params(context), maker, blocks);
      return g.build(0, std::move(group));
    } catch (const not_simple&) {
      blocks.resize(first_block);
      return std::nullopt;
    }
  } catch (const not_simple&) {
    return std::nullopt;
  }
}

}  // namespace sadsl::comm_detail
