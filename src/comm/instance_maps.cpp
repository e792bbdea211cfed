// The tile and PE coordinates of every statement instance of a design at a point.
#include <algorithm>

#include <fmt/format.h>

#include "isl_util.hpp"
#include "sadsl/comm/routing.hpp"
#include "sadsl/compute/concrete.hpp"
#include "sadsl/dsl/to_isl.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

isl::set param_values(const program& p, const padding_plan& pad) {
  isl_builder b(p.kernel());
  isl::set values = isl::set::universe(b.param_space());
  int pos = 0;
  for (const auto& prm : p.kernel().params())
    values = isl::manage(isl_set_fix_si(values.release(), isl_dim_param, static_cast<unsigned>(pos++),
                                        static_cast<int>(pad.values.at(prm.id()))));
  return values;
}

// The statement with the most loops (the first of them): the band is its loop prefix.
size_t main_statement(const program& p) {
  size_t main = 0;
  for (size_t s = 1; s < p.statements().size(); ++s)
    if (p.statements()[s].record->loops.size() > p.statements()[main].record->loops.size()) main = s;
  return main;
}

class builder {
public:
  builder(const design& d, const design_point& v, const padding_plan& pad)
      : d_(d), v_(v), pad_(pad), p_(*d.band->source), b_(p_.kernel()), main_(main_statement(p_)) {
    const auto& loops = p_.statements()[main_].record->loops;
    depth_ = d_.band->loops.size();
    inner_.assign(loops.begin() + static_cast<long>(depth_), loops.end());
    out_.owner = d.band->owner;
    out_.params = param_values(p_, pad);
    out_.inner_loops = inner_.size();
    out_.domain = isl::union_set::empty(p_.context().ctx());
    out_.tile = out_.pe = isl::union_map::empty(p_.context().ctx());
  }

  instance_maps build() {
    for (size_t s = 0; s < p_.statements().size(); ++s) add(s);
    std::map<statement_id, isl::map> orders;
    out_.order = isl::union_map::empty(p_.context().ctx());
    for (const auto& s : p_.statements()) {
      isl::map o = orders.emplace(s.id, order_of(s)).first->second;
      out_.order = out_.order.unite(isl::union_map(o.intersect_domain(out_.domains.at(s.id))));
    }
    check_inner_order(orders);
    const auto& main = p_.statements()[main_];
    bool simd_reduction = d_.simd && std::any_of(main.reduction_loops.begin(), main.reduction_loops.end(),
                                                 [&](const loop_id& l) { return l == *d_.simd; });
    out_.reduction_reordered = simd_reduction && !inner_.empty() && v_.at({*d_.simd, tile_level::simd}) > 1;
    return std::move(out_);
  }

private:
  void add(size_t index) {
    const statement_info& s = p_.statements()[index];
    isl::set domain = s.domain.intersect_params(out_.params);
    // A zero-padded loop that shares its param runs to its own padded bound (comm/padding.hpp).
    for (size_t k = 0; k < s.record->loops.size(); ++k) {
      auto bound = pad_.loop_bounds.find(s.record->loops[k]->loop_identity());
      if (bound != pad_.loop_bounds.end())
        domain = isl::manage(isl_set_upper_bound_si(domain.release(), isl_dim_set, static_cast<unsigned>(k), bound->second - 1));
    }
    out_.domains.emplace(s.id, domain);
    isl::space sp = s.domain.space();
    design_dims dims = design_dimensions(d_, v_, s);
    auto& inner = out_.inner[s.id];
    for (size_t k = 0; k < inner_.size(); ++k) inner.push_back(inner_dim(s, index, k));
    out_.domain = out_.domain.unite(isl::union_set(domain));
    out_.tile = out_.tile.unite(isl::union_map(comm_isl::map_of(sp, dims.tile, "tile").intersect_domain(domain)));
    out_.pe = out_.pe.unite(isl::union_map(comm_isl::map_of(sp, dims.space, "pe").intersect_domain(domain)));
  }

  // The PEs run the loops below the band of every statement as one nest (inner_dim places a
  // statement that lacks one at its first or last iteration), in the statements' order at each
  // point of it. A kernel whose statements run those loops one after the other may depend on that
  // order (a statement after the loop of another and before a third's): every dependence within
  // a band point must still run its source first.
  void check_inner_order(const std::map<statement_id, isl::map>& orders) const {
    if (inner_.empty()) return;  // the band's own order: the design's legality
    auto position = [&](const statement_id& id) {
      for (size_t n = 0; n < p_.statements().size(); ++n)
        if (p_.statements()[n].id == id) return n;
      throw internal_error("instance maps: a dependence of a statement outside the program");
    };
    for (const auto& b : d_.band->deps) {
      if (b.dep.kind == dep_kind::read) continue;
      isl::map pairs = b.dep.relation.intersect_params(out_.params)
                           .intersect_domain(out_.domains.at(b.dep.source))
                           .intersect_range(out_.domains.at(b.dep.sink));
      if (pairs.is_empty()) continue;
      isl::map from = orders.at(b.dep.source), to = orders.at(b.dep.sink);
      bool earlier = position(b.dep.source) < position(b.dep.sink);
      isl::map ordered = isl::manage(earlier ? isl_map_lex_le_map(from.release(), to.release())
                                             : isl_map_lex_lt_map(from.release(), to.release()));
      ordered = isl::manage(isl_map_align_params(ordered.release(), pairs.space().release()));
      if (!pairs.subtract(ordered).is_empty()) {
        std::vector<std::string> names;
        for (const auto& l : inner_) names.push_back(l->name);
        throw error(fmt::format("design {}: its PEs run the loops below the band ({}) of all statements as one nest, which "
                                "would run the sink of the {} first; sadsl cannot build this design",
                                d_.name(), fmt::join(names, ", "), b.describe(p_)));
      }
    }
  }

  // { S[x] -> order[band point, inner dims] }: where instance x runs in its PE's program.
  isl::map order_of(const statement_info& s) const {
    std::vector<isl::aff> dims;
    const isl::multi_aff& place = d_.band->placement.at(s.id);
    for (isl_size i = 0; i < isl_multi_aff_size(place.get()); ++i) {
      isl::aff a = isl::manage(isl_multi_aff_get_at(place.get(), i));
      dims.push_back(isl::manage(isl_aff_align_params(a.release(), s.domain.space().params().release())));
    }
    for (const auto& a : out_.inner.at(s.id)) dims.push_back(a);
    return comm_isl::map_of(s.domain.space(), dims, "order");
  }

  // The k-th loop below the band: the statement's own, or (for a statement without it) the main
  // statement's first iteration when it precedes the main statement, its last when it follows.
  isl::aff inner_dim(const statement_info& s, size_t index, size_t k) const {
    const auto& loops = s.record->loops;
    if (depth_ + k < loops.size()) {
      // designs() refuses such kernels (compute/band.cpp).
      SADSL_INTERNAL_ASSERT(loops[depth_ + k] == inner_[k],
                            fmt::format("design {}: statements {} and {} nest different loops below the band", d_.name(),
                                        s.name(), p_.statements()[main_].name()));
      return comm_isl::var_on(s.domain.space(), static_cast<int>(depth_ + k));
    }
    const auto& l = *inner_[k];
    affine bound = index <= main_ ? l.lo : l.hi - 1;
    for (const auto& used : bound.loops())
      if (std::find(loops.begin(), loops.end(), used) == loops.end())
        throw error(fmt::format("design {}: statement {} lacks loop \"{}\" and the bound of \"{}\" depends on \"{}\"",
                                d_.name(), s.name(), l.name, l.name, used->name));
    return b_.to_aff(bound, s.domain.space(), loops);
  }

  const design& d_;
  const design_point& v_;
  const padding_plan& pad_;
  const program& p_;
  isl_builder b_;
  size_t main_;
  size_t depth_ = 0;
  std::vector<detail::symbol_ptr> inner_;
  instance_maps out_;
};

}  // namespace

instance_maps instance_maps_of(const design& d, const design_point& p, const padding_plan& pad) {
  if (d.tile_order.empty()) throw error(fmt::format("design {} has no tile loops: it needs array partitioning", d.name()));
  return builder(d, p, pad).build();
}

}  // namespace sadsl
