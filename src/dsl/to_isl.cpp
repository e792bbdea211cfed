#include "sadsl/dsl/to_isl.hpp"

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>

#include <fmt/format.h>

#include "kernel_state.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

isl::aff zero_aff(const isl::space& set_space) {
  return isl::manage(isl_aff_zero_on_domain(isl_local_space_from_space(set_space.copy())));
}

isl::aff with_coefficient(isl::aff a, isl_dim_type type, int pos, int64_t c) {
  return isl::manage(isl_aff_set_coefficient_si(a.release(), type, pos, static_cast<int>(c)));
}

isl::set nonnegative(const isl::aff& a) { return a.ge_set(zero_aff(a.domain().space())); }
isl::set zero(const isl::aff& a) { return a.eq_set(zero_aff(a.domain().space())); }

}  // namespace

isl_builder::isl_builder(const kernel& k) : ctx_(k.ctx()), params_(k.state()->params) {}

int isl_builder::param_position(const detail::symbol_node* p) const {
  for (size_t i = 0; i < params_.size(); ++i)
    if (params_[i].get() == p) return static_cast<int>(i);
  SADSL_INTERNAL_ASSERT(false, "param \"" + p->name + "\" is not a param of this kernel");
}

isl::space isl_builder::param_space() const { return set_space("", {}).params(); }

isl::space isl_builder::set_space(const std::string& tuple, const std::vector<detail::symbol_ptr>& loops) const {
  isl_space* sp = isl_space_set_alloc(ctx_, params_.size(), loops.size());
  for (size_t i = 0; i < params_.size(); ++i)
    sp = isl_space_set_dim_id(sp, isl_dim_param, i, isl_id_alloc(ctx_, params_[i]->name.c_str(), nullptr));
  for (size_t i = 0; i < loops.size(); ++i)
    sp = isl_space_set_dim_id(sp, isl_dim_set, i, isl_id_alloc(ctx_, loops[i]->name.c_str(), nullptr));
  if (!tuple.empty()) sp = isl_space_set_tuple_name(sp, isl_dim_set, tuple.c_str());
  return isl::manage(sp);
}

isl::set isl_builder::param_context() const {
  isl::space sp = set_space("", {});
  isl::set context = isl::set::universe(sp);
  for (size_t i = 0; i < params_.size(); ++i) {
    isl::aff p_minus_1 = with_coefficient(zero_aff(sp), isl_dim_param, static_cast<int>(i), 1).add_constant(-1);
    context = context.intersect(nonnegative(p_minus_1));
  }
  return context.params();
}

isl::set isl_builder::param_values() const {
  isl::space sp = set_space("", {});
  isl::set values = isl::set::universe(sp);
  for (size_t i = 0; i < params_.size(); ++i) {
    isl::aff p = with_coefficient(zero_aff(sp), isl_dim_param, static_cast<int>(i), 1).add_constant(-detail::size_of(*params_[i]));
    values = values.intersect(zero(p));
  }
  return values.params();
}

isl::aff isl_builder::to_aff(const affine& a, const isl::space& space,
                             const std::vector<detail::symbol_ptr>& loops) const {
  SADSL_INTERNAL_ASSERT(a.is_affine(), "non-affine expression reached isl: " + a.str());
  isl::aff r = zero_aff(space).add_constant(a.constant());
  for (const auto& t : a.terms()) {
    if (t.symbol->kind == detail::symbol_kind::param) {
      r = with_coefficient(r, isl_dim_param, param_position(t.symbol.get()), t.coefficient);
      continue;
    }
    auto it = std::find(loops.begin(), loops.end(), t.symbol);
    SADSL_INTERNAL_ASSERT(it != loops.end(), "loop \"" + t.symbol->name + "\" is not a dimension of the space");
    r = with_coefficient(r, isl_dim_in, static_cast<int>(it - loops.begin()), t.coefficient);
  }
  return r;
}

isl::set isl_builder::condition_set(const condition& c, const isl::space& space,
                                    const std::vector<detail::symbol_ptr>& loops) const {
  isl::set s = isl::set::universe(space);
  for (const auto& k : c.constraints()) {
    isl::aff e = to_aff(k.expr, space, loops);
    s = s.intersect(k.equality ? zero(e) : nonnegative(e));
  }
  return s;
}

isl::set isl_builder::statement_domain(const statement_record& s) const {
  isl::space sp = set_space(s.id.name(), s.loops);
  isl::set dom = isl::set::universe(sp);
  for (size_t i = 0; i < s.loops.size(); ++i) {
    const auto& l = s.loops[i];
    isl::aff it = with_coefficient(zero_aff(sp), isl_dim_in, static_cast<int>(i), 1);
    dom = dom.intersect(nonnegative(it.sub(to_aff(l->lo, sp, s.loops))));                      // it >= lo
    dom = dom.intersect(nonnegative(to_aff(l->hi, sp, s.loops).sub(it).add_constant(-1)));    // it < hi
  }
  for (const auto& g : s.guards) {
    isl::set c = condition_set(g.cond, sp, s.loops);
    dom = g.negated ? dom.subtract(c) : dom.intersect(c);
  }
  return dom.coalesce();
}

isl::map isl_builder::access_relation(const statement_record& s, const detail::tensor_node& t,
                                      const std::vector<affine>& index) const {
  isl::space dom = set_space(s.id.name(), s.loops);
  isl_space* range = isl_space_set_tuple_name(isl_space_set_alloc(ctx_, params_.size(), index.size()),
                                              isl_dim_set, t.name.c_str());
  for (size_t i = 0; i < params_.size(); ++i)
    range = isl_space_set_dim_id(range, isl_dim_param, i, isl_id_alloc(ctx_, params_[i]->name.c_str(), nullptr));
  isl_space* map_space = isl_space_map_from_domain_and_range(dom.copy(), range);
  isl_aff_list* list = isl_aff_list_alloc(ctx_, static_cast<int>(index.size()));
  for (const auto& a : index) list = isl_aff_list_add(list, to_aff(a, dom, s.loops).release());
  return isl::manage(isl_map_from_multi_aff(isl_multi_aff_from_aff_list(map_space, list)));
}

isl::space isl_builder::tensor_space(const detail::tensor_node& t) const {
  isl_space* sp = isl_space_set_tuple_name(isl_space_set_alloc(ctx_, params_.size(), t.extents.size()),
                                           isl_dim_set, t.name.c_str());
  for (size_t i = 0; i < params_.size(); ++i)
    sp = isl_space_set_dim_id(sp, isl_dim_param, i, isl_id_alloc(ctx_, params_[i]->name.c_str(), nullptr));
  return isl::manage(sp);
}

isl::set isl_builder::tensor_extent_set(const detail::tensor_node& t) const {
  isl::space space = tensor_space(t);
  isl::set box = isl::set::universe(space);
  for (size_t d = 0; d < t.extents.size(); ++d) {
    isl::aff x = with_coefficient(zero_aff(space), isl_dim_in, static_cast<int>(d), 1);
    box = box.intersect(nonnegative(x));
    box = box.intersect(nonnegative(to_aff(t.extents[d], space, {}).sub(x).add_constant(-1)));
  }
  return box;
}

isl::set isl_builder::tensor_outside(const detail::tensor_node& t, int dim, bool upper) const {
  isl::space space = tensor_space(t);
  isl::aff x = with_coefficient(zero_aff(space), isl_dim_in, dim, 1);
  isl::aff violation = upper ? x.sub(to_aff(t.extents[dim], space, {})) : x.neg().add_constant(-1);
  return nonnegative(violation);
}

}  // namespace sadsl
