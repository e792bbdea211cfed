// The shared analysis of the architecture builder, and its sequence of steps.
#include "construction.hpp"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>

#include <fmt/format.h>

#include "isl_util.hpp"
#include "sadsl/compute/concrete.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

// The largest value of f over its domain.
int64_t max_value(const isl::pw_aff& f) {
  isl::val v = isl::manage(isl_pw_aff_max_val(f.copy()));
  SADSL_INTERNAL_ASSERT(v.is_int(), "an unbounded chunk");
  return v.get_num_si();
}

}  // namespace

std::vector<int64_t> box_extents(const isl::union_map& chunks) {
  std::vector<int64_t> out;
  chunks.foreach_map([&](isl::map m) {
    int n = static_cast<int>(isl_map_dim(m.get(), isl_dim_out));
    if (out.empty()) out.assign(static_cast<size_t>(n), 0);
    for (int d = 0; d < n; ++d) {
      isl::pw_aff lo = isl::manage(isl_map_dim_min(m.copy(), d)), hi = isl::manage(isl_map_dim_max(m.copy(), d));
      int64_t extent = max_value(hi.sub(lo)) + 1;
      out[static_cast<size_t>(d)] = std::max(out[static_cast<size_t>(d)], extent);
    }
  });
  return out;
}

std::vector<isl::pw_aff> position_in_box(const isl::pw_multi_aff& index, const isl::union_map& key_of,
                                         const isl::union_map& chunks, const isl::set& on) {
  isl::map reach = isl::manage(isl_map_from_union_map(
      key_of.intersect_domain(isl::union_set(on)).apply_range(chunks).release()));
  std::vector<isl::pw_aff> out;
  int n = static_cast<int>(isl_pw_multi_aff_dim(index.get(), isl_dim_out));
  for (int d = 0; d < n; ++d) {
    isl::pw_aff origin = isl::manage(isl_map_dim_min(reach.copy(), d));
    isl::pw_aff at = isl::manage(isl_pw_multi_aff_get_at(index.get(), d)).intersect_domain(on);
    out.push_back(at.sub(origin));
  }
  return out;
}

arch_builder::arch_builder(const design& d, const architecture_point& point)
    : d_(d), point_(point), prog_(*d.band->source) {
  if (d.tile_order.empty()) throw error(fmt::format("design {} has no tile loops: it needs array partitioning", d.name()));
  check_factors(d, point.factors);
  pad_ = plan_padding(d, point.factors);
  maps_ = instance_maps_of(d, point.factors, pad_);
  routes_ = route(d, point.factors, maps_, pad_);
  grid_ = pe_grid(d, point.factors);
  if (d.simd) simd_ = point.factors.at({*d.simd, tile_level::simd});
  if (!pad_.zero_padded && simd_ > 1)
    throw error(fmt::format("design {}: SIMD lanes need whole vectors, but the design cannot be padded with zeros ({}); "
                            "use a SIMD factor of 1",
                            d.name(), pad_.why_guarded));
  isl::set tiles = isl::manage(isl_set_from_union_set(maps_.tile.range().release()));
  for (int j = 0; j < static_cast<int>(d.tile_order.size()); ++j)
    tile_counts_.push_back(max_value(isl::manage(isl_set_dim_max(tiles.copy(), j))) + 1);
  params_ = part_params(maps_.params, d.tile_order.size(), d.space.size());
}

isl::set arch_builder::params_only_context(const std::vector<int64_t>& extents) const {
  isl::set c = isl::manage(isl_set_align_params(maps_.params.copy(), params_.copy()));
  auto bound = [&](const std::string& name, int64_t n) {
    int pos = isl_set_find_dim_by_name(c.get(), isl_dim_param, name.c_str());
    c = isl::manage(isl_set_lower_bound_si(c.release(), isl_dim_param, static_cast<unsigned>(pos), 0));
    c = isl::manage(isl_set_upper_bound_si(c.release(), isl_dim_param, static_cast<unsigned>(pos), static_cast<int>(n - 1)));
  };
  for (size_t j = 0; j < tile_counts_.size(); ++j) bound(fmt::format("t{}", j), tile_counts_[j]);
  for (size_t i = 0; i < grid_.size(); ++i) bound(fmt::format("p{}", i), i < extents.size() ? extents[i] : 1);
  return c;
}

isl::pw_multi_aff arch_builder::stored_index(const access_ref& a) const {
  const statement_info& s = prog_.statement(a.statement);
  const access_info& acc = s.access(a);
  isl::map rel = acc.relation;
  for (const auto& l : d_.layouts) {
    if (l.tensor != acc.tensor->id()) continue;
    isl::space sp = rel.range().space();
    std::vector<isl::aff> dims;
    for (int o : l.order) dims.push_back(comm_isl::var_on(sp, o));
    rel = rel.apply_range(comm_isl::map_of(sp, dims, acc.tensor->name));
  }
  return isl::manage(isl_pw_multi_aff_from_map(rel.intersect_params(maps_.params).release()));
}

int64_t arch_builder::token_lanes(const access_ref& a, bool& vector) const {
  vector = false;
  if (simd_ == 1) return 1;
  const statement_info& s = prog_.statement(a.statement);
  const access_info& acc = s.access(a);
  std::vector<affine> index = acc.index;
  for (const auto& l : d_.layouts)
    if (l.tensor == acc.tensor->id())
      for (size_t k = 0; k < l.order.size(); ++k) index[k] = acc.index[static_cast<size_t>(l.order[k])];
  std::vector<int64_t> c;
  for (const auto& x : index) {
    int64_t v = 0;
    for (const auto& t : x.terms())
      if (t.symbol->seq == d_.simd->key()) v = t.coefficient;
    c.push_back(v);
  }
  bool none = std::all_of(c.begin(), c.end(), [](int64_t v) { return v == 0; });
  bool read_only = std::none_of(prog_.arrays().begin(), prog_.arrays().end(),
                                [&](const array_info& x) { return x.tensor == acc.tensor && x.written; });
  if (none) {
    vector = read_only;  // read-only data is read once per vector and shared by its lanes
    return 1;
  }
  bool last_only = c.back() == 1 && std::all_of(c.begin(), c.end() - 1, [](int64_t v) { return v == 0; });
  if (!last_only)
    throw error(fmt::format("design {}: access {} is not stride-1 in the SIMD loop's last dimension", d_.name(),
                            access_text(prog_, a)));
  vector = true;
  return simd_;
}

isl::pw_aff arch_builder::lane_of(const statement_info& s) const {
  size_t pos = (d_.band->loops.size() - d_.space.size()) + maps_.inner_loops + d_.latency.size();
  isl::map local = maps_.local.extract_map(isl::manage(isl_space_map_from_domain_and_range(
      s.domain.space().release(),
      isl_space_set_tuple_name(
          isl_space_add_dims(isl_space_set_from_params(maps_.params.space().release()), isl_dim_set,
                             static_cast<unsigned>(pos + 2)),
          isl_dim_set, "local"))));
  isl::pw_multi_aff f = isl::manage(isl_pw_multi_aff_from_map(local.release()));
  return isl::manage(isl_pw_multi_aff_get_at(f.get(), static_cast<int>(pos)));
}

isl::union_set arch_builder::at_tile_and_pe(const isl::union_set& instances) const {
  isl::set tile = fixed_to_params(params_, "tile", d_.tile_order.size(), "t");
  isl::set pe = fixed_to_params(params_, "pe", d_.space.size(), "p");
  return instances.intersect(isl::union_set(tile).apply(maps_.tile.reverse()))
      .intersect(isl::union_set(pe).apply(maps_.pe.reverse()));
}

const statement_info& arch_builder::statement(const std::string& tuple) const { return prog_.statement(tuple); }

elem_type arch_builder::element_of(const tensor_id& t) const {
  for (const auto& a : prog_.arrays())
    if (a.tensor->id() == t) return a.tensor->type;
  SADSL_INTERNAL_ASSERT(false, "no tensor " + t.name());
}

}  // namespace sadsl::comm_detail
