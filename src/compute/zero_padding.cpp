// Whether a design's partial tiles can be padded with zeros (zero_padding.hpp).
#include "sadsl/compute/zero_padding.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace sadsl {

namespace {

using detail::symbol_kind;
using detail::symbol_node;
using detail::symbol_ptr;

// The param p when a == 1 * p exactly.
const symbol_node* single_param(const affine& a) {
  if (a.constant() != 0 || a.terms().size() != 1) return nullptr;
  const auto& t = a.terms().front();
  return t.coefficient == 1 && t.symbol->kind == symbol_kind::param ? t.symbol.get() : nullptr;
}

bool is_exactly(const affine& a, const symbol_node* loop) {
  return a.constant() == 0 && a.terms().size() == 1 && a.terms().front().coefficient == 1 &&
         a.terms().front().symbol.get() == loop;
}

bool mentions(const affine& a, const symbol_node* s) { return a.coefficient(s) != 0; }

// Whether tensor t has a dimension indexed exactly by `loop` whose extent is the loop's param.
bool indexes_exactly(const detail::tensor_node& t, const std::vector<affine>& index, const symbol_node* loop,
                     const symbol_node* param) {
  for (size_t d = 0; d < index.size(); ++d)
    if (is_exactly(index[d], loop) && single_param(t.extents[d]) == param) return true;
  return false;
}

// The factors of a product: reads (through casts) and constants; false when e is not a product.
bool product_reads(const expr_node& e, std::vector<const expr_node*>& reads) {
  switch (e.op) {
    case expr_op::read: reads.push_back(&e); return true;
    case expr_op::constant: return true;
    case expr_op::cast: return product_reads(*e.args[0], reads);
    case expr_op::mul: return product_reads(*e.args[0], reads) && product_reads(*e.args[1], reads);
    default: return false;
  }
}

class checker {
public:
  explicit checker(const design& d) : d_(d), p_(*d.band->source) {}

  // "" when zero padding is valid, else why not.
  std::string check() {
    for (const auto& l : d_.band->loops) {
      const symbol_node* param = single_param(l->hi);
      if (!l->lo.is_constant() || l->lo.constant() != 0 || !param)
        return fmt::format("loop \"{}\" does not run over [0, P) for a param P", l->name);
      params_.emplace_back(l.get(), param);
    }
    for (const auto& s : p_.statements())
      if (std::string why = check_statement(*s.record); !why.empty()) return fmt::format("statement {}: {}", s.name(), why);
    return "";
  }

  // Every band loop runs over [0, P) (check() got past the loops), no statement's loop below the
  // band has bounds that mention a band loop or its param, and a guard mentions one only as its
  // first or last iteration (`k == 0`, `k == P - 1`), which whole tiles keep in their first or last
  // tile whatever the factors: a guard such as `i < 8` would split the tiles differently at each
  // tiling, and the model, read at one, would not hold at the others.
  bool whole_tiles_at_divisors() const {
    if (params_.size() != d_.band->loops.size()) return false;
    for (const auto& s : p_.statements()) {
      for (const auto& l : s.record->loops) {
        if (param_of(l.get())) continue;
        for (const auto& [loop, param] : params_)
          if (mentions(l->lo, loop) || mentions(l->hi, loop) || mentions(l->lo, param) || mentions(l->hi, param)) return false;
      }
      for (const auto& g : s.record->guards)
        for (const auto& c : g.cond.constraints()) {
          bool band = std::any_of(params_.begin(), params_.end(),
                                  [&](const auto& lp) { return mentions(c.expr, lp.first) || mentions(c.expr, lp.second); });
          if (band && !(c.equality && at_an_end(c.expr))) return false;
        }
    }
    return true;
  }

  const std::vector<std::pair<const symbol_node*, const symbol_node*>>& params() const { return params_; }

  // Whether loops that share a param may each run to their own padded bound (the instances
  // restricted to a box of the padded kernel): every dependence keeps its source in any box
  // [0, b) that holds its sink (constant distances, none negative), and every statement but the
  // implicit initialization (placed at its reduction's first instance) has every band loop (one
  // that lacks a loop runs at its last iteration, which the box may not hold). Loops below the
  // band are not in the box: their distances do not matter.
  bool pads_apart() const {
    for (const auto& b : d_.band->deps) {  // distances over the band loops (the box's)
      if (b.dep.kind == dep_kind::read) continue;
      if (!b.uniform || b.distances.empty()) return false;
      for (const auto& piece : b.distances) {
        auto v = piece.constant();
        if (!v || std::any_of(v->begin(), v->end(), [](int64_t x) { return x < 0; })) return false;
      }
    }
    for (const auto& s : p_.statements()) {
      if (s.record->implicit_init) continue;
      for (const auto& [loop, param] : params_)
        if (std::find_if(s.record->loops.begin(), s.record->loops.end(), [&](const symbol_ptr& l) { return l.get() == loop; }) ==
            s.record->loops.end())
          return false;
    }
    return true;
  }

private:
  // e == 0 says that a band loop is at its first iteration (l, or -l) or its last (l - P + 1, or
  // its negation).
  bool at_an_end(const affine& e) const {
    for (const auto& [loop, param] : params_) {
      int64_t a = e.coefficient(loop), b = e.coefficient(param);
      if (a != 1 && a != -1) continue;
      size_t terms = e.terms().size();
      if (terms == 1 && e.constant() == 0) return true;
      if (terms == 2 && b == -a && e.constant() == a) return true;
    }
    return false;
  }

  const symbol_node* param_of(const symbol_node* loop) const {
    for (const auto& [l, q] : params_)
      if (l == loop) return q;
    return nullptr;
  }

  std::string check_statement(const statement_record& s) {
    for (const auto& g : s.guards)
      for (const auto& c : g.cond.constraints())
        for (const auto& [loop, param] : params_)
          if (mentions(c.expr, loop) || mentions(c.expr, param)) return fmt::format("guard \"{}\"", g.cond.str());
    for (const auto& l : s.loops) {
      if (param_of(l.get())) continue;  // a band loop
      for (const auto& [loop, param] : params_)
        if (mentions(l->lo, loop) || mentions(l->hi, loop) || mentions(l->lo, param) || mentions(l->hi, param))
          return fmt::format("the bounds of loop \"{}\" depend on band loop \"{}\"", l->name, loop->name);
    }
    if (s.implicit_init) return "";
    if (s.op != update_op::add && s.op != update_op::sub)
      return "only += and -= accumulations (and the implicit initialization) are padded with zeros";
    std::vector<const expr_node*> reads;
    if (!product_reads(*s.rhs.node(), reads)) return "its right-hand side is not a product";
    for (const auto& l : s.loops) {
      const symbol_node* param = param_of(l.get());
      if (!param) continue;
      bool ok = indexes_exactly(*s.lhs, s.lhs_index, l.get(), param);
      bool reduction = std::find(s.reduction_loops.begin(), s.reduction_loops.end(), l) != s.reduction_loops.end();
      if (reduction)
        ok = std::any_of(reads.begin(), reads.end(),
                         [&](const expr_node* r) { return indexes_exactly(*r->tensor, r->index, l.get(), param); });
      if (!ok)
        return fmt::format("no {} is indexed by \"{}\" alone over its extent \"{}\"", reduction ? "factor" : "result",
                           l->name, param->name);
    }
    return "";
  }

  const design& d_;
  const program& p_;
  std::vector<std::pair<const symbol_node*, const symbol_node*>> params_;  // band loop -> its param
};

}  // namespace

zero_padding check_zero_padding(const design& d) {
  checker c(d);
  zero_padding out;
  out.why_not = c.check();
  out.whole_tiles_at_divisors = c.whole_tiles_at_divisors();
  if (!out.valid()) return out;
  out.loop_params = c.params();
  out.pads_apart = c.pads_apart();
  return out;
}

}  // namespace sadsl
