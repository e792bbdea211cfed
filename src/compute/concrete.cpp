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

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

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

class schedule_builder {
public:
  schedule_builder(const design& d, const factor_values& v) : d_(d), v_(v) {}

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
  int64_t value(const std::string& name) const { return v_.at(name); }

  loop_parts parts(const std::string& loop, const isl::aff& b) const {
    bool lat = contains(d_.latency, loop), vec = d_.simd == loop;
    int64_t t1 = value(loop + "_t1");
    loop_parts out;
    out.tile = floor_div(b, t1);
    isl::aff point = mod(b, t1);
    if (lat) {
      int64_t t2 = value(loop + "_t2");
      out.outer = floor_div(point, t2);
      isl::aff rest = mod(point, t2);
      if (vec) {
        int64_t t3 = value(loop + "_t3");
        out.latency = floor_div(rest, t3);
        out.simd = mod(rest, t3);
      } else {
        out.latency = rest;
      }
    } else if (vec) {
      int64_t t2 = value(loop + "_t2");
      out.outer = floor_div(point, t2);
      out.simd = mod(point, t2);
    } else {
      out.outer = point;
    }
    return out;
  }

  isl::map statement_dims(const statement_info& s) const {
    const band& b = *d_.band;
    isl::multi_aff place = b.placement.at(s.name);
    std::map<std::string, loop_parts> loops;
    auto names = b.loop_names();
    for (size_t l = 0; l < names.size() && !d_.tile_order.empty(); ++l)
      loops.emplace(names[l], parts(names[l], isl::manage(isl_multi_aff_get_at(place.get(), static_cast<int>(l)))));
    std::vector<isl::aff> dims;
    if (d_.tile_order.empty()) {  // space-time only: the space loops outermost, then the others
      for (const auto& l : d_.space) dims.push_back(isl::manage(isl_multi_aff_get_at(place.get(), static_cast<int>(b.position(l)))));
      for (size_t l = 0; l < names.size(); ++l)
        if (!contains(d_.space, names[l])) dims.push_back(isl::manage(isl_multi_aff_get_at(place.get(), static_cast<int>(l))));
      return make_map(s, dims);
    }
    for (const auto& l : d_.tile_order) dims.push_back(loops.at(l).tile);
    for (const auto& l : d_.space) dims.push_back(loops.at(l).outer);
    for (const auto& l : names)
      if (!contains(d_.space, l)) dims.push_back(loops.at(l).outer);
    for (const auto& l : d_.latency) dims.push_back(*loops.at(l).latency);
    if (!d_.simd.empty()) dims.push_back(*loops.at(d_.simd).simd);
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
  const factor_values& v_;
};

}  // namespace

void check_factors(const design& d, const factor_values& values) {
  for (const auto& [name, v] : values)
    if (!d.factor(name))
      throw error(fmt::format("design {} has no tiling factor \"{}\"", d.name(), name));
  for (const auto& f : d.factors) {
    auto it = values.find(f.name);
    if (it == values.end()) throw error(fmt::format("design {} needs a value for tiling factor \"{}\"", d.name(), f.name));
    int64_t v = it->second;
    if (v < 1) throw error(fmt::format("tiling factor \"{}\" = {} must be at least 1", f.name, v));
    if (!f.divides.empty()) {
      int64_t parent = values.at(f.divides);
      if (parent % v != 0)
        throw error(fmt::format("tiling factor \"{}\" = {} must divide {} = {}", f.name, v, f.divides, parent));
    }
    if (f.power_of_two && (v & (v - 1)) != 0)
      throw error(fmt::format("tiling factor \"{}\" = {} must be a power of two", f.name, v));
    if (f.max_value > 0 && v > f.max_value)
      throw error(fmt::format("tiling factor \"{}\" = {} exceeds its limit {}", f.name, v, f.max_value));
  }
}

isl::schedule concrete_schedule(const design& d, const factor_values& values) {
  check_factors(d, values);
  return schedule_builder(d, values).build();
}

std::vector<stored_layout> stored_layouts(const design& d) {
  std::vector<stored_layout> out;
  for (const auto& l : d.layouts) out.push_back({l.tensor, l.order});
  return out;
}

std::map<std::string, int64_t> padded_extents(const design& d, const factor_values& values) {
  check_factors(d, values);
  std::map<std::string, int64_t> out;
  auto param_value = [](const detail::symbol_node& s) -> int64_t {
    if (s.kind != detail::symbol_kind::param) throw std::out_of_range("loop");
    return s.value;
  };
  for (const auto& l : d.band->loops) {
    int64_t extent;
    try {
      extent = (l->hi - l->lo).evaluate(param_value);
    } catch (const std::out_of_range&) {
      continue;  // bounds depend on outer loops: partial tiles, no padding
    }
    int64_t t1 = values.at(l->name + "_t1");
    out[l->name] = (extent + t1 - 1) / t1 * t1;
  }
  return out;
}

}  // namespace sadsl
