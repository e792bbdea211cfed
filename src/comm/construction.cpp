// The shared analysis of the architecture builder, and its sequence of steps.
#include "construction.hpp"

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "isl_util.hpp"
#include "sadsl/compute/concrete.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

std::vector<std::vector<int64_t>> all_points(const std::vector<int64_t>& extents) {
  std::vector<std::vector<int64_t>> out{{}};
  for (int64_t n : extents) {
    std::vector<std::vector<int64_t>> next;
    for (const auto& p : out)
      for (int64_t v = 0; v < n; ++v) {
        next.push_back(p);
        next.back().push_back(v);
      }
    out = std::move(next);
  }
  return out;
}

namespace {

// The largest value of f over its domain.
int64_t max_value(const isl::pw_aff& f) {
  isl::val v = isl::manage(isl_pw_aff_max_val(f.copy()));
  SADSL_INTERNAL_ASSERT(v.is_int(), "an unbounded chunk");
  return v.get_num_si();
}

}  // namespace

// The largest difference y_d - x_d of two elements at the same parameter values is one integer
// program over the pairs, not two parametric ones (the least and the largest x_d per parameter
// values) and a maximum of their difference.
std::vector<int64_t> box_extents(const isl::set& elements) {
  std::vector<int64_t> out;
  isl_size n = isl_set_dim(elements.get(), isl_dim_set);
  isl::set pairs = isl::manage(isl_map_wrap(isl_map_from_domain_and_range(elements.copy(), elements.copy())));
  for (isl_size d = 0; d < n; ++d) {
    isl_aff* spread = isl_aff_zero_on_domain(isl_local_space_from_space(isl_set_get_space(pairs.get())));
    spread = isl_aff_set_coefficient_si(spread, isl_dim_in, static_cast<int>(d), -1);
    spread = isl_aff_set_coefficient_si(spread, isl_dim_in, static_cast<int>(n + d), 1);
    isl::val v = isl::manage(isl_set_max_val(pairs.get(), spread));
    isl_aff_free(spread);
    SADSL_INTERNAL_ASSERT(v.is_int(), "an unbounded chunk");
    out.push_back(v.get_num_si() + 1);
  }
  return out;
}

namespace {

// The integer coefficients of a matrix of constraints (rows of [constant | params | dims]);
// std::nullopt when one does not fit.
std::optional<std::vector<std::vector<int64_t>>> integer_rows(isl_mat* m) {
  std::vector<std::vector<int64_t>> out(static_cast<size_t>(isl_mat_rows(m)));
  bool ok = true;
  for (size_t r = 0; r < out.size() && ok; ++r)
    for (int c = 0; c < isl_mat_cols(m) && ok; ++c) {
      isl_val* v = isl_mat_get_element_val(m, static_cast<int>(r), c);
      ok = isl_val_is_int(v) == isl_bool_true && isl_val_cmp_si(v, INT32_MAX) < 0 && isl_val_cmp_si(v, INT32_MIN) > 0;
      out[r].push_back(ok ? isl_val_get_num_si(v) : 0);
      isl_val_free(v);
    }
  isl_mat_free(m);
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::vector<isl::pw_aff>> box_origin_on_box(const isl::set& elements,
                                                          const std::vector<std::pair<int64_t, int64_t>>& params) {
  // One conjunction without existential variables, whose dimensions each have a lower bound of
  // unit coefficient over the parameters alone that is at least every other one on the
  // parameters' box (or an equality): that bound is the minimum wherever the set has points (the
  // other constraints hold at it too: they bound the dimension from above, or with another
  // dimension whose value a point gives). No parametric integer program. Defined on the box only.
  if (isl_set_n_basic_set(elements.get()) != 1 || isl_set_dim(elements.get(), isl_dim_div) != 0) return std::nullopt;
  const auto np = static_cast<size_t>(isl_set_dim(elements.get(), isl_dim_param));
  const auto nd = static_cast<size_t>(isl_set_dim(elements.get(), isl_dim_set));
  if (np != params.size()) return std::nullopt;
  isl_basic_set_list* list = isl_set_get_basic_set_list(elements.get());
  isl::basic_set b = isl::manage(isl_basic_set_list_get_at(list, 0));
  isl_basic_set_list_free(list);
  if (isl_basic_set_dim(b.get(), isl_dim_div) != 0) return std::nullopt;
  auto eqs = integer_rows(isl_basic_set_equalities_matrix(b.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div));
  auto ineqs = integer_rows(isl_basic_set_inequalities_matrix(b.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div));
  if (!eqs || !ineqs) return std::nullopt;
  auto only_dim = [&](const std::vector<int64_t>& r, size_t d) {
    for (size_t e = 0; e < nd; ++e)
      if (e != d && r[1 + np + e] != 0) return false;
    return true;
  };
  // The least value of an affine function of the parameters (constant first) on their box.
  auto least = [&](const std::vector<int64_t>& f) {
    int64_t v = f[0];
    for (size_t i = 0; i < np; ++i) v += f[1 + i] * (f[1 + i] > 0 ? params[i].first : params[i].second);
    return v;
  };
  // Where the set has points, on the box (beyond it another bound may be the larger).
  isl_set* on_box = isl_set_params(elements.copy());
  for (size_t i = 0; i < np; ++i) {
    on_box = isl_set_lower_bound_si(on_box, isl_dim_param, static_cast<unsigned>(i), static_cast<int>(params[i].first));
    on_box = isl_set_upper_bound_si(on_box, isl_dim_param, static_cast<unsigned>(i), static_cast<int>(params[i].second));
  }
  isl::set domain = isl::manage(on_box);
  isl::space sp = isl::manage(isl_set_get_space(domain.get()));
  std::vector<isl::pw_aff> out;
  for (size_t d = 0; d < nd; ++d) {
    std::optional<std::vector<int64_t>> best;  // the bound, as a function of the parameters
    for (const auto& r : *eqs) {
      if (r[1 + np + d] == 0) continue;
      if (!only_dim(r, d) || (r[1 + np + d] != 1 && r[1 + np + d] != -1)) return std::nullopt;
      std::vector<int64_t> f(1 + np);
      for (size_t i = 0; i <= np; ++i) f[i] = -r[i] * r[1 + np + d];
      best = f;
      break;
    }
    if (!best) {
      std::vector<std::vector<int64_t>> lower;
      for (const auto& r : *ineqs) {
        if (r[1 + np + d] <= 0) continue;
        if (r[1 + np + d] != 1 || !only_dim(r, d)) return std::nullopt;
        std::vector<int64_t> f(1 + np);
        for (size_t i = 0; i <= np; ++i) f[i] = -r[i];
        lower.push_back(std::move(f));
      }
      for (const auto& f : lower) {
        bool above_all = true;
        for (const auto& g : lower) {
          std::vector<int64_t> diff(1 + np);
          for (size_t i = 0; i <= np; ++i) diff[i] = f[i] - g[i];
          above_all = above_all && least(diff) >= 0;
        }
        if (above_all) {
          best = f;
          break;
        }
      }
      if (!best) return std::nullopt;
    }
    isl_aff* a = isl_aff_zero_on_domain(isl_local_space_from_space(sp.copy()));
    a = isl_aff_set_constant_si(a, static_cast<int>((*best)[0]));
    for (size_t i = 0; i < np; ++i) a = isl_aff_set_coefficient_si(a, isl_dim_param, static_cast<int>(i), static_cast<int>((*best)[1 + i]));
    out.push_back(isl::manage(isl_pw_aff_alloc(domain.copy(), a)));
  }
  return out;
}

std::vector<isl::pw_aff> box_origin(const isl::set& elements) {
  std::vector<isl::pw_aff> out;
  int n = static_cast<int>(isl_set_dim(elements.get(), isl_dim_set));
  for (int d = 0; d < n; ++d) out.push_back(isl::manage(isl_set_dim_min(elements.copy(), d)).coalesce());
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
  if (maps_.tile.is_empty()) {  // no tile, no PE to build: say so rather than fail in isl
    std::vector<std::string> sizes;
    for (const auto& prm : prog_.kernel().params()) sizes.push_back(fmt::format("{} = {}", prm.name(), prm.value()));
    throw error(fmt::format("design {}: kernel \"{}\" runs no instance of its band at {} (the statements' domains are "
                            "empty there): there is no architecture to build",
                            d.name(), prog_.kernel().name(), fmt::join(sizes, ", ")));
  }
  isl::set tiles = isl::manage(isl_set_from_union_set(maps_.tile.range().release()));
  for (int j = 0; j < static_cast<int>(d.tile_order.size()); ++j)
    tile_counts_.push_back(max_value(isl::manage(isl_set_dim_max(tiles.copy(), j))) + 1);
  params_ = part_params(maps_.params, d.tile_order.size(), d.space.size());
}

const std::pair<int64_t, int64_t>* arch_builder::param_range(const char* name) const {
  if (param_ranges_.empty()) {  // the kernel's params fixed, tiles and PE coordinates within range
    isl_size n = isl_set_dim(maps_.params.get(), isl_dim_param);
    for (isl_size i = 0; i < n; ++i) {
      isl::val v = isl::manage(isl_set_plain_get_val_if_fixed(maps_.params.get(), isl_dim_param, static_cast<unsigned>(i)));
      if (v.is_int())
        param_ranges_[isl_set_get_dim_name(maps_.params.get(), isl_dim_param, static_cast<unsigned>(i))] = {v.get_num_si(), v.get_num_si()};
    }
    int64_t pes = 1;
    for (int64_t g : grid_) pes = std::max(pes, g);
    for (size_t j = 0; j < tile_counts_.size(); ++j) param_ranges_[fmt::format("t{}", j)] = {0, tile_counts_[j] - 1};
    for (size_t i = 0; i < grid_.size(); ++i) param_ranges_[fmt::format("p{}", i)] = {0, pes - 1};
  }
  auto it = param_ranges_.find(name);
  return it == param_ranges_.end() ? nullptr : &it->second;
}

std::vector<isl::pw_aff> arch_builder::origin_of(const isl::set& elements) const {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  isl_size n = isl_set_dim(elements.get(), isl_dim_param);
  for (isl_size i = 0; i < n; ++i) {
    const auto* r = param_range(isl_set_get_dim_name(elements.get(), isl_dim_param, static_cast<unsigned>(i)));
    if (!r) return box_origin(elements);
    ranges.push_back(*r);
  }
  if (auto out = box_origin_on_box(elements, ranges)) return std::move(*out);
  return box_origin(elements);
}

isl::set arch_builder::params_only_context(const std::vector<int64_t>& extents) const {
  if (auto it = contexts_.find(extents); it != contexts_.end()) return it->second;
  isl::set c = isl::manage(isl_set_align_params(maps_.params.copy(), params_.copy()));
  auto bound = [&](const std::string& name, int64_t n) {
    int pos = isl_set_find_dim_by_name(c.get(), isl_dim_param, name.c_str());
    c = isl::manage(isl_set_lower_bound_si(c.release(), isl_dim_param, static_cast<unsigned>(pos), 0));
    c = isl::manage(isl_set_upper_bound_si(c.release(), isl_dim_param, static_cast<unsigned>(pos), static_cast<int>(n - 1)));
  };
  for (size_t j = 0; j < tile_counts_.size(); ++j) bound(fmt::format("t{}", j), tile_counts_[j]);
  for (size_t i = 0; i < grid_.size(); ++i) bound(fmt::format("p{}", i), i < extents.size() ? extents[i] : 1);
  return contexts_[extents] = c;
}

isl::pw_multi_aff arch_builder::stored_index(const access_ref& a) const {
  auto key = std::make_pair(a.statement, a.read);
  if (auto it = stored_indices_.find(key); it != stored_indices_.end()) return it->second;
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
  return stored_indices_[key] = isl::manage(isl_pw_multi_aff_from_map(rel.intersect_params(maps_.params).release()));
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


arch_builder::local_frame arch_builder::frame_of(const statement_info& s, const std::vector<pe_coordinate>& pe,
                                                const std::string& tuple) const {
  std::vector<std::pair<int, int64_t>> spec;
  for (const auto& c : pe) spec.emplace_back(c.param, c.value);
  auto key = std::make_tuple(s.id, spec, tuple);
  if (auto it = frames_.find(key); it != frames_.end()) return it->second;
  if (tuple != s.name()) {  // the statement's frame, renamed
    local_frame out = frame_of(s, pe, s.name());
    out.domain = comm_isl::renamed(out.domain, tuple);
    out.instance = isl::manage(isl_pw_multi_aff_set_tuple_id(out.instance.release(), isl_dim_in,
                                                             isl_id_alloc(params_.ctx().get(), tuple.c_str(), nullptr)));
    return frames_[key] = out;
  }
  const size_t n_time = d_.band->loops.size() - d_.space.size(), n_inner = maps_.inner_loops;
  const size_t n = n_time + n_inner + d_.latency.size() + 1;
  isl_space* lsp = isl_space_set_from_params(params_.copy());
  lsp = isl_space_add_dims(lsp, isl_dim_set, static_cast<unsigned>(n));
  lsp = isl_space_set_tuple_name(lsp, isl_dim_set, tuple.c_str());
  isl::space L = isl::manage(lsp);
  auto var = [&](size_t i) { return comm_isl::var_on(L, static_cast<int>(i)); };
  auto constant = [&](int64_t v) { return comm_isl::constant_on(L, v); };
  auto param = [&](const std::string& name) {
    return isl::manage(isl_aff_param_on_domain_space_id(L.copy(), isl_id_alloc(L.ctx().get(), name.c_str(), nullptr)));
  };
  auto scaled = [&](const isl::aff& a, int64_t k) { return a.scale(isl::val(L.ctx(), k)); };
  isl::set domain = isl::set::universe(L);
  std::vector<std::pair<int64_t, int64_t>> box(n, {INT64_MIN, INT64_MAX});
  auto range = [&](size_t i, int64_t extent) {
    box[i] = {0, extent - 1};
    domain = domain.intersect(isl::manage(isl_aff_ge_set(var(i).release(), constant(0).release())));
    domain = domain.intersect(isl::manage(isl_aff_le_set(var(i).release(), constant(extent - 1).release())));
  };
  const size_t lane = n - 1;
  range(lane, simd_);
  // f(L): each band loop's value, then the inner loops.
  std::vector<isl::aff> values;
  size_t time = 0;
  for (const auto& l : d_.band->loop_ids()) {
    size_t j = static_cast<size_t>(std::find(d_.tile_order.begin(), d_.tile_order.end(), l) - d_.tile_order.begin());
    int64_t t1 = point_.factors.at({l, tile_level::array_partition});
    bool lat = std::find(d_.latency.begin(), d_.latency.end(), l) != d_.latency.end(), vec = d_.simd == l;
    int64_t t2 = lat ? point_.factors.at({l, tile_level::latency_hiding}) : 1;
    isl::aff v = scaled(param(fmt::format("t{}", j)), t1);
    auto space = std::find(d_.space.begin(), d_.space.end(), l);
    int64_t w = lat ? t2 : vec ? simd_ : 1;
    if (space != d_.space.end()) {
      size_t i = static_cast<size_t>(space - d_.space.begin());
      const pe_coordinate& c = pe.at(i);
      isl::aff outer = c.param >= 0 ? param(fmt::format("p{}", c.param)) : constant(c.value);
      if (c.param >= 0) {  // a PE of the grid
        domain = domain.intersect(isl::manage(isl_aff_ge_set(outer.copy(), constant(0).release())));
        domain = domain.intersect(isl::manage(isl_aff_le_set(outer.copy(), constant(grid_[i] - 1).release())));
      }
      v = v.add(scaled(outer, w));
    } else {
      range(time, t1 / w);
      v = v.add(scaled(var(time++), w));
    }
    if (lat) {
      size_t at = n_time + n_inner + static_cast<size_t>(std::find(d_.latency.begin(), d_.latency.end(), l) - d_.latency.begin());
      int64_t step = vec ? simd_ : 1;
      range(at, t2 / step);
      v = v.add(scaled(var(at), step));
    }
    if (vec) v = v.add(var(lane));
    values.push_back(v);
  }
  for (size_t k = 0; k < n_inner; ++k) values.push_back(var(n_time + k));
  if (!d_.simd) domain = domain.intersect(isl::manage(isl_aff_le_set(var(lane).release(), constant(0).release())));
  if (!d_.simd) box[lane] = {0, 0};
  // g(x): the instance's band values and inner loops.
  isl::space x_space = isl::manage(isl_space_align_params(s.domain.space().release(), params_.copy()));
  isl::multi_aff place = isl::manage(isl_multi_aff_align_params(d_.band->placement.at(s.id).copy(), params_.copy()));
  std::vector<isl::aff> of_x;
  for (int b = 0; b < static_cast<int>(d_.band->loops.size()); ++b) of_x.push_back(isl::manage(isl_multi_aff_get_at(place.get(), b)));
  for (const auto& a : maps_.inner.at(s.id)) of_x.push_back(isl::manage(isl_aff_align_params(a.copy(), params_.copy())));
  isl::map f = comm_isl::map_of(L, values, "v").intersect_domain(domain);
  isl::map g = comm_isl::map_of(x_space, of_x, "v");
  isl::set x = isl::manage(isl_set_align_params(maps_.domains.at(s.id).copy(), params_.copy()));
  isl::map rel = f.apply_range(g.reverse()).intersect_range(x);
  local_frame out;
  out.domain = rel.domain().coalesce();
  out.instance = isl::manage(isl_pw_multi_aff_from_map(rel.release()));
  out.indices = std::make_shared<std::map<std::pair<statement_id, int>, isl::pw_multi_aff>>();
  out.box = std::move(box);
  return frames_[key] = out;
}

isl::set arch_builder::frame_points(const local_frame& f, const isl::set& x) const {
  // Most routes leave most classes empty (a read comes through one port): no preimage for them.
  if (isl_set_plain_is_empty(x.get()) == isl_bool_true) return isl::set::empty(f.domain.space());
  // The preimage lies in the instance function's domain, the frame's points, already: isl
  // intersects each piece's image with that piece's domain (intersecting it again with the frame
  // was most of this function's time).
  isl::set aligned = isl::manage(isl_set_align_params(x.copy(), params_.copy()));
  isl::set points = isl::manage(isl_set_preimage_pw_multi_aff(aligned.release(), f.instance.copy())).coalesce();
  if (isl_set_involves_locals(points.get()) != isl_bool_true) return points;
  return without_box_divs(points, f);
}

// A class of instances bounded by tile or PE boundaries has existential variables such as
// floor(k / 513); over the frame, k = 513 t1 + i1 with i1 in [0, 512], so floor(i1 / 513) is 0
// there and the class is i1 = 0, a conjunction the generator's integer analysis simplifies
// (with the variable, isl's gist had to). A variable with two values splits the conjunction:
// floor((i1 + 1) / 513) is 1 at i1 = 512 only.
isl::set arch_builder::without_box_divs(const isl::set& s, const local_frame& f) const {
  const auto np = static_cast<size_t>(isl_set_dim(s.get(), isl_dim_param));
  const auto nd = static_cast<size_t>(isl_set_dim(s.get(), isl_dim_set));
  if (f.box.size() != nd) return s;
  std::vector<std::pair<int64_t, int64_t>> box;  // params, then dimensions
  for (size_t i = 0; i < np; ++i) {
    const auto* r = param_range(isl_set_get_dim_name(s.get(), isl_dim_param, static_cast<unsigned>(i)));
    box.push_back(r ? *r : std::make_pair(INT64_MIN, INT64_MAX));
  }
  box.insert(box.end(), f.box.begin(), f.box.end());
  return comm_detail::without_box_divs(s, box);
}

isl::set without_box_divs(const isl::set& s, const std::vector<std::pair<int64_t, int64_t>>& box) {
  const auto np = static_cast<size_t>(isl_set_dim(s.get(), isl_dim_param));
  const auto nd = static_cast<size_t>(isl_set_dim(s.get(), isl_dim_set));
  if (box.size() != np + nd) return s;
  isl::space space = isl::manage(isl_set_get_space(s.get()));
  isl::set out = isl::set::empty(space);
  isl_basic_set_list* list = isl_set_get_basic_set_list(s.get());
  const int pieces = isl_basic_set_list_n_basic_set(list);
  bool ok = true;
  for (int k = 0; k < pieces && ok; ++k) {
    isl::basic_set b = isl::manage(isl_basic_set_list_get_at(list, k));
    const auto nq = static_cast<size_t>(isl_basic_set_dim(b.get(), isl_dim_div));
    if (nq == 0) {
      out = out.unite(isl::set(b));
      continue;
    }
    auto eqs = integer_rows(isl_basic_set_equalities_matrix(b.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div));
    auto ineqs = integer_rows(isl_basic_set_inequalities_matrix(b.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div));
    ok = eqs && ineqs;
    // Each variable floor(e / m): e's coefficients (constant, params, dimensions), m, its values.
    struct variable {
      std::vector<int64_t> e;
      int64_t m = 1, first = 0, last = 0;
    };
    std::vector<variable> vars;
    size_t combinations = 1;
    for (size_t q = 0; q < nq && ok; ++q) {
      isl_aff* a = isl_basic_set_get_div(b.get(), static_cast<int>(q));
      variable v;
      isl_val* den = isl_aff_get_denominator_val(a);
      ok = isl_val_is_int(den) == isl_bool_true && isl_val_cmp_si(den, INT32_MAX) < 0;
      v.m = ok ? isl_val_get_num_si(den) : 1;
      isl_val_free(den);
      auto scaled = [&](isl_val* c) {  // c * m, an integer
        c = isl_val_mul(c, isl_val_int_from_si(isl_aff_get_ctx(a), v.m));
        bool fits = isl_val_is_int(c) == isl_bool_true && isl_val_cmp_si(c, INT32_MAX) < 0 && isl_val_cmp_si(c, INT32_MIN) > 0;
        int64_t n = fits ? isl_val_get_num_si(c) : 0;
        isl_val_free(c);
        ok = ok && fits;
        return n;
      };
      v.e.push_back(scaled(isl_aff_get_constant_val(a)));
      for (size_t i = 0; i < np; ++i) v.e.push_back(scaled(isl_aff_get_coefficient_val(a, isl_dim_param, static_cast<int>(i))));
      for (size_t i = 0; i < nd; ++i) v.e.push_back(scaled(isl_aff_get_coefficient_val(a, isl_dim_in, static_cast<int>(i))));
      for (size_t i = 0; i < nq; ++i) ok = ok && scaled(isl_aff_get_coefficient_val(a, isl_dim_div, static_cast<int>(i))) == 0;
      isl_aff_free(a);
      // e's interval on the box, then floor(e / m)'s.
      int64_t lo = v.e[0], hi = v.e[0];
      for (size_t i = 0; i < np + nd && ok; ++i) {
        int64_t c = v.e[1 + i];
        if (c == 0) continue;
        // An unbounded dimension, or a product or sum past 64 bits: left to isl.
        int64_t at_lo = 0, at_hi = 0;
        ok = box[i].first != INT64_MIN && box[i].second != INT64_MAX &&
             !__builtin_mul_overflow(c, c > 0 ? box[i].first : box[i].second, &at_lo) &&
             !__builtin_mul_overflow(c, c > 0 ? box[i].second : box[i].first, &at_hi) &&
             !__builtin_add_overflow(lo, at_lo, &lo) && !__builtin_add_overflow(hi, at_hi, &hi);
      }
      if (!ok) break;
      auto floor_div = [](int64_t a, int64_t m) { return a >= 0 ? a / m : -((-(a + 1)) / m) - 1; };
      v.first = floor_div(lo, v.m);
      v.last = floor_div(hi, v.m);
      ok = ok && v.last - v.first <= 1;
      combinations *= static_cast<size_t>(v.last - v.first + 1);
      vars.push_back(std::move(v));
    }
    ok = ok && combinations <= 4;
    for (size_t c = 0; c < combinations && ok; ++c) {
      // The variables' values in this combination, substituted; a variable with two values is
      // defined by m v <= e <= m v + m - 1.
      std::vector<std::vector<int64_t>> equal, above;
      auto drop = [&](const std::vector<int64_t>& r, const std::vector<int64_t>& values) {
        std::vector<int64_t> out(r.begin(), r.begin() + static_cast<long>(1 + np + nd));
        for (size_t q = 0; q < nq; ++q) out[0] += r[1 + np + nd + q] * values[q];
        return out;
      };
      std::vector<int64_t> values;
      size_t rest = c;
      for (const auto& v : vars) {
        int64_t count = v.last - v.first + 1;
        values.push_back(v.first + static_cast<int64_t>(rest % static_cast<size_t>(count)));
        rest /= static_cast<size_t>(count);
      }
      for (const auto& r : *eqs) equal.push_back(drop(r, values));
      for (const auto& r : *ineqs) above.push_back(drop(r, values));
      for (size_t q = 0; q < nq; ++q) {
        if (vars[q].first == vars[q].last) continue;
        std::vector<int64_t> low = vars[q].e, high(vars[q].e.size());
        low[0] -= vars[q].m * values[q];  // e - m v >= 0
        for (size_t i = 0; i < high.size(); ++i) high[i] = -vars[q].e[i];
        high[0] += vars[q].m * values[q] + vars[q].m - 1;  // m v + m - 1 - e >= 0
        above.push_back(std::move(low));
        above.push_back(std::move(high));
      }
      isl_ctx* ctx = space.ctx().get();
      auto matrix = [&](const std::vector<std::vector<int64_t>>& rows) {
        isl_mat* m = isl_mat_alloc(ctx, static_cast<unsigned>(rows.size()), static_cast<unsigned>(1 + np + nd));
        for (size_t r = 0; r < rows.size(); ++r)
          for (size_t j = 0; j < 1 + np + nd; ++j) {
            ok = ok && rows[r][j] > INT32_MIN && rows[r][j] < INT32_MAX;
            m = isl_mat_set_element_si(m, static_cast<int>(r), static_cast<int>(j), static_cast<int>(rows[r][j]));
          }
        return m;
      };
      isl::basic_set piece = isl::manage(isl_basic_set_from_constraint_matrices(space.copy(), matrix(equal), matrix(above), isl_dim_cst,
                                                                               isl_dim_param, isl_dim_set, isl_dim_div));
      if (ok && isl_basic_set_is_empty(piece.get()) != isl_bool_true) out = out.unite(isl::set(piece));
    }
  }
  isl_basic_set_list_free(list);
  return ok ? out.coalesce() : s;
}

isl::pw_multi_aff arch_builder::index_on(const local_frame& f, const access_ref& a) const {
  auto key = std::make_pair(a.statement, a.read);
  auto it = f.indices->find(key);
  if (it == f.indices->end()) {
    // Over the statement's own frame: a renamed frame shares it.
    const statement_info& s = prog_.statement(a.statement);
    isl_pw_multi_aff* instance = isl_pw_multi_aff_set_tuple_id(f.instance.copy(), isl_dim_in,
                                                               isl_id_alloc(params_.ctx().get(), s.name().c_str(), nullptr));
    isl_pw_multi_aff* g = isl_pw_multi_aff_align_params(stored_index(a).release(), params_.copy());
    // Its domain, the statement's instances, holds the instance of every frame point already:
    // with one piece the function alone spares pulling that domain back.
    if (isl_pw_multi_aff_n_piece(g) == 1) g = isl_pw_multi_aff_from_multi_aff(comm_isl::only_piece(g));
    it = f.indices->emplace(key, isl::manage(isl_pw_multi_aff_pullback_pw_multi_aff(g, instance))).first;
  }
  isl::id tuple = isl::manage(isl_set_get_tuple_id(f.domain.get()));
  isl::id own = isl::manage(isl_pw_multi_aff_get_tuple_id(it->second.get(), isl_dim_in));
  if (isl_id_get_name(tuple.get()) == std::string(isl_id_get_name(own.get()))) return it->second;
  return isl::manage(isl_pw_multi_aff_set_tuple_id(it->second.copy(), isl_dim_in, tuple.release()));
}

std::vector<isl::pw_aff> arch_builder::index_in_buffer(const local_frame& f, const access_ref& a,
                                                       const std::vector<isl::pw_aff>& origin) const {
  // Pulled back at once: the pieces' domains are the same for every output. The pullback lies in
  // the instance function's domain already; a frame restricted since is intersected with it.
  isl_pw_multi_aff* g = index_on(f, a).release();
  if (!f.whole) g = isl_pw_multi_aff_intersect_domain(g, f.domain.copy());
  std::vector<isl::pw_aff> out;
  for (size_t d = 0; d < origin.size(); ++d) {
    isl::pw_aff index = isl::manage(isl_pw_multi_aff_get_at(g, static_cast<int>(d))).coalesce();
    isl::pw_aff base = isl::manage(isl_pw_aff_insert_domain(origin[d].copy(), f.domain.space().release()));
    base = isl::manage(isl_pw_aff_align_params(base.release(), isl_pw_aff_get_space(index.get())));
    if (isl_pw_aff_n_piece(index.get()) == 1 && isl_pw_aff_n_piece(base.get()) == 1) {
      // One function less another, on the index's domain: the origin is defined wherever the
      // buffer has elements (intersecting the two domains was most of this function's time).
      isl_set* domain = isl_pw_aff_domain(index.copy());
      isl_aff* value = isl_aff_sub(comm_isl::only_piece(index.release()), comm_isl::only_piece(base.release()));
      out.push_back(isl::manage(isl_pw_aff_alloc(domain, value)));
      continue;
    }
    out.push_back(index.sub(base).coalesce());  // index is on f.domain already
  }
  isl_pw_multi_aff_free(g);
  return out;
}

isl::union_map arch_builder::frame_schedule(const local_frame& f, int64_t position) const {
  isl::space sp = f.domain.space();
  std::vector<isl::aff> dims;
  int n = static_cast<int>(isl_space_dim(sp.get(), isl_dim_set));
  for (int i = 0; i < n; ++i) dims.push_back(comm_isl::var_on(sp, i));
  dims.push_back(comm_isl::constant_on(sp, position));
  return isl::union_map(comm_isl::map_of(sp, dims, "s").intersect_domain(f.domain));
}

const statement_info& arch_builder::statement(const std::string& tuple) const { return prog_.statement(tuple); }

elem_type arch_builder::element_of(const tensor_id& t) const {
  for (const auto& a : prog_.arrays())
    if (a.tensor->id() == t) return a.tensor->type;
  SADSL_INTERNAL_ASSERT(false, "no tensor " + t.name());
}

}  // namespace sadsl::comm_detail
