#include "sadsl/compute/concrete.hpp"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/space.h>
#include <isl/schedule.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

namespace {

bool contains(const std::vector<loop_id>& v, const loop_id& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

isl::aff floor_div(const isl::aff& a, int64_t t) {
  return isl::manage(isl_aff_floor(isl_aff_scale_down_ui(a.copy(), static_cast<unsigned>(t))));
}

isl::aff mod(const isl::aff& a, int64_t t) {
  return isl::manage(isl_aff_mod_val(a.copy(), isl_val_int_from_si(a.ctx().get(), t)));
}

// The parts of one band loop's value b under its factors: tile, outer point, latency, SIMD.
struct loop_parts {
  isl::aff tile, outer;
  std::optional<isl::aff> latency, simd;  // only for loops with those factors
};

// The design dimensions of each statement, from its placement in the band and the factors.
class dimension_builder {
public:
  dimension_builder(const design& d, const design_point& v) : d_(d), v_(v) {}

  design_dims dims(const statement_info& s) const {
    const band& b = *d_.band;
    isl::multi_aff place = b.placement.at(s.id);
    std::map<loop_id, loop_parts> loops;
    auto ids = b.loop_ids();
    for (size_t l = 0; l < ids.size(); ++l)
      loops.emplace(ids[l], parts(ids[l], isl::manage(isl_multi_aff_get_at(place.get(), static_cast<int>(l)))));
    design_dims out;
    for (const auto& l : d_.tile_order) out.tile.push_back(loops.at(l).tile);
    for (const auto& l : d_.space) out.space.push_back(loops.at(l).outer);
    for (const auto& l : ids)
      if (!contains(d_.space, l)) out.time.push_back(loops.at(l).outer);
    for (const auto& l : d_.latency) out.latency.push_back(*loops.at(l).latency);
    if (d_.simd) out.simd = *loops.at(*d_.simd).simd;
    return out;
  }

private:
  int64_t value(const loop_id& loop, tile_level level) const { return v_.at({loop, level}); }

  loop_parts parts(const loop_id& loop, const isl::aff& b) const {
    bool lat = contains(d_.latency, loop), vec = d_.simd == loop;
    int64_t t1 = value(loop, tile_level::array_partition);
    loop_parts out;
    out.tile = floor_div(b, t1);
    isl::aff point = mod(b, t1);
    if (lat) {
      int64_t t2 = value(loop, tile_level::latency_hiding);
      out.outer = floor_div(point, t2);
      isl::aff rest = mod(point, t2);
      if (vec) {
        int64_t t3 = value(loop, tile_level::simd);
        out.latency = floor_div(rest, t3);
        out.simd = mod(rest, t3);
      } else {
        out.latency = rest;
      }
    } else if (vec) {
      int64_t t2 = value(loop, tile_level::simd);
      out.outer = floor_div(point, t2);
      out.simd = mod(point, t2);
    } else {
      out.outer = point;
    }
    return out;
  }

  const design& d_;
  const design_point& v_;
};

class schedule_builder {
public:
  schedule_builder(const design& d, const design_point& v) : d_(d), v_(v) {}

  isl::schedule build() {
    const program& p = *d_.band->source;
    isl::union_map dims = isl::union_map::empty(p.context().ctx());
    for (const auto& s : p.statements()) dims = dims.unite(isl::union_map(statement_dims(s)));
    isl::union_map original = p.schedule().map();
    isl::union_map full = isl::manage(isl_union_map_flat_range_product(dims.release(), original.release()));
    isl::schedule sched = isl::manage(isl_schedule_from_domain(p.domain().copy()));
    return isl::manage(isl_schedule_insert_partial_schedule(sched.release(),
                                                            isl_multi_union_pw_aff_from_union_map(full.release())));
  }

private:
  isl::map statement_dims(const statement_info& s) const {
    const band& b = *d_.band;
    isl::multi_aff place = b.placement.at(s.id);
    std::vector<isl::aff> dims;
    if (d_.tile_order.empty()) {  // space-time only: the space loops outermost, then the others
      auto ids = b.loop_ids();
      for (const auto& l : d_.space) dims.push_back(isl::manage(isl_multi_aff_get_at(place.get(), static_cast<int>(b.position(l)))));
      for (size_t l = 0; l < ids.size(); ++l)
        if (!contains(d_.space, ids[l])) dims.push_back(isl::manage(isl_multi_aff_get_at(place.get(), static_cast<int>(l))));
      return make_map(s, dims);
    }
    design_dims parts = dimension_builder(d_, v_).dims(s);
    for (auto* group : {&parts.tile, &parts.space, &parts.time, &parts.latency})
      dims.insert(dims.end(), group->begin(), group->end());
    if (parts.simd) dims.push_back(*parts.simd);
    return make_map(s, dims);
  }

  isl::map make_map(const statement_info& s, std::vector<isl::aff>& dims) const {
    isl_space* range = isl_space_add_dims(isl_space_set_from_params(isl_space_params(s.domain.space().release())),
                                          isl_dim_set, static_cast<unsigned>(dims.size()));
    isl_space* sp = isl_space_map_from_domain_and_range(s.domain.space().release(), range);
    isl_aff_list* list = isl_aff_list_alloc(p_ctx(), static_cast<int>(dims.size()));
    for (auto& a : dims) list = isl_aff_list_add(list, a.release());
    return isl::manage(isl_map_from_multi_aff(isl_multi_aff_from_aff_list(sp, list))).intersect_domain(s.domain);
  }

  isl_ctx* p_ctx() const { return d_.band->source->context().ctx().get(); }

  const design& d_;
  const design_point& v_;
};

}  // namespace

void check_factors(const design& d, const design_point& values) {
  for (const auto& [f, v] : values)
    if (!d.factor(f))
      throw error(fmt::format("design {} has no tiling factor of loop \"{}\" at level {}", d.name(), f.loop.name(),
                              level_name(f.level)));
  for (const auto& f : d.factors) {
    std::string name = d.name_of(f.id);
    auto it = values.find(f.id);
    if (it == values.end()) throw error(fmt::format("design {} needs a value for tiling factor \"{}\"", d.name(), name));
    int64_t v = it->second;
    if (v < 1) throw error(fmt::format("tiling factor \"{}\" = {} must be at least 1", name, v));
    if (f.parent) {
      int64_t parent = values.at(*f.parent);
      if (parent % v != 0)
        throw error(fmt::format("tiling factor \"{}\" = {} must divide {} = {}", name, v, d.name_of(*f.parent), parent));
    }
    if (f.power_of_two && (v & (v - 1)) != 0)
      throw error(fmt::format("tiling factor \"{}\" = {} must be a power of two", name, v));
    if (f.max_value > 0 && v > f.max_value)
      throw error(fmt::format("tiling factor \"{}\" = {} exceeds its limit {}", name, v, f.max_value));
  }
}

isl::schedule concrete_schedule(const design& d, const design_point& values) {
  check_factors(d, values);
  return schedule_builder(d, values).build();
}

design_dims design_dimensions(const design& d, const design_point& values, const statement_info& s) {
  if (d.tile_order.empty())
    throw error(fmt::format("design {} has no tile loops: partition it before asking for its dimensions", d.name()));
  check_factors(d, values);
  return dimension_builder(d, values).dims(s);
}

isl::schedule concrete_schedule(const design& d, const factor_values& values) {
  return concrete_schedule(d, point_by_name(d, values));
}

std::vector<stored_layout> stored_layouts(const design& d) {
  std::vector<stored_layout> out;
  for (const auto& l : d.layouts) out.push_back({l.tensor, l.order});
  return out;
}

std::map<loop_id, int64_t> padded_extents(const design& d, const design_point& values) {
  check_factors(d, values);
  std::map<loop_id, int64_t> out;
  auto param_value = [](const detail::symbol_node& s) -> int64_t {
    if (s.kind != detail::symbol_kind::param) throw std::out_of_range("loop");
    return detail::size_of(s);
  };
  for (const auto& l : d.band->loop_ids()) {
    int64_t extent;
    try {
      extent = d.band->extent(l).evaluate(param_value);
    } catch (const std::out_of_range&) {
      continue;  // bounds depend on outer loops: partial tiles, no padding
    }
    int64_t t1 = values.at({l, tile_level::array_partition});
    out[l] = (extent + t1 - 1) / t1 * t1;
  }
  return out;
}

}  // namespace sadsl
