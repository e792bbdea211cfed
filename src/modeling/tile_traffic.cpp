// A tile's DRAM traffic as parametric sets (tile_traffic.hpp).
#include "tile_traffic.hpp"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "point_count.hpp"
#include "sadsl/error.hpp"

namespace sadsl::modeling {

namespace {

// The band's statements' instances in one tile: { S[x] : o <= placement(x) < o + t } within
// S's domain, with the tile's params appended to the kernel's.
class tile_sets {
public:
  explicit tile_sets(const band& b) : b_(b), tile_(tile_box(b)) { params_ = tile_.space().params(); }

  // The instances of statement st in the tile, and all of them (both with the tile's params).
  isl::set inside(const statement_info& st) const {
    isl::set in = isl::manage(isl_set_preimage_multi_aff(tile_.copy(), b_.placement.at(st.id).copy()));
    return in.intersect(all(st));
  }
  isl::set all(const statement_info& st) const { return aligned(st.domain); }
  isl::set aligned(const isl::set& s) const { return isl::manage(isl_set_align_params(s.copy(), params_.copy())); }
  isl::map aligned(const isl::map& m) const { return isl::manage(isl_map_align_params(m.copy(), params_.copy())); }

private:
  const band& b_;
  isl::space params_;
  isl::set tile_;
};

// Adds s to the traffic of (tensor, direction), read inside the tile by `readers` (inputs).
void add(std::vector<tile_traffic>& out, const tensor_id& tensor, bool input, const isl::set& s,
         const isl::set& readers = isl::set()) {
  if (s.is_empty()) return;
  for (auto& t : out)
    if (t.tensor == tensor && t.input == input) {
      t.values = t.values.unite(isl::union_set(s));
      if (input) t.readers = t.readers.unite(isl::union_set(readers));
      return;
    }
  isl::union_set read_by = input ? isl::union_set(readers) : isl::manage(isl_union_set_empty(isl_space_params(isl_set_get_space(s.get()))));
  out.push_back({tensor, input, isl::union_set(s), read_by});
}

// The tiles of band loop x at the kernel's sizes, tiled by t1 from 0: 1 + the largest x / t1.
int64_t tiles_at(const band& b, size_t x, int64_t t1) {
  isl_set* s = band_points(b).release();
  for (const auto& p : b.source->kernel().params()) {
    int q = isl_set_find_dim_by_name(s, isl_dim_param, p.name().c_str());
    if (q >= 0) s = isl_set_fix_si(s, isl_dim_param, static_cast<unsigned>(q), static_cast<int>(p.value()));
  }
  isl::set points = isl::manage(s);
  if (points.is_empty()) return 0;
  isl::aff coordinate = isl::manage(isl_aff_var_on_domain(isl_local_space_from_space(points.space().release()), isl_dim_set,
                                                          static_cast<unsigned>(x)));
  isl::val most = isl::manage(isl_set_max_val(points.get(), coordinate.get()));
  return static_cast<int64_t>(isl_val_get_num_si(most.get())) / t1 + 1;
}

}  // namespace

isl::set tile_box(const band& b) {
  SADSL_INTERNAL_ASSERT(!b.placement.empty(), "tile_traffic: a band without statements");
  isl::space band_space = isl::manage(isl_multi_aff_get_space(b.placement.begin()->second.get())).range();
  const size_t n = b.loops.size();
  isl_space* s = band_space.release();
  unsigned first = static_cast<unsigned>(isl_space_dim(s, isl_dim_param));
  std::vector<std::string> names = tile_param_names(b);
  s = isl_space_add_dims(s, isl_dim_param, static_cast<unsigned>(2 * n));
  for (size_t p = 0; p < names.size(); ++p)
    s = isl_space_set_dim_id(s, isl_dim_param, first + static_cast<unsigned>(p),
                             isl_id_alloc(isl_space_get_ctx(s), names[p].c_str(), nullptr));
  isl_basic_set* tile = isl_basic_set_universe(isl_space_copy(s));
  for (size_t x = 0; x < n; ++x) {
    const int o = static_cast<int>(first + x), t = static_cast<int>(first + n + x);
    isl_local_space* ls = isl_local_space_from_space(isl_space_copy(s));
    // x - o >= 0
    isl_constraint* lower = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    lower = isl_constraint_set_coefficient_si(lower, isl_dim_set, static_cast<int>(x), 1);
    lower = isl_constraint_set_coefficient_si(lower, isl_dim_param, o, -1);
    // o + t - 1 - x >= 0
    isl_constraint* upper = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    upper = isl_constraint_set_coefficient_si(upper, isl_dim_set, static_cast<int>(x), -1);
    upper = isl_constraint_set_coefficient_si(upper, isl_dim_param, o, 1);
    upper = isl_constraint_set_coefficient_si(upper, isl_dim_param, t, 1);
    upper = isl_constraint_set_constant_si(upper, -1);
    // t >= 1
    isl_constraint* extent = isl_constraint_alloc_inequality(ls);
    extent = isl_constraint_set_coefficient_si(extent, isl_dim_param, t, 1);
    extent = isl_constraint_set_constant_si(extent, -1);
    tile = isl_basic_set_add_constraint(tile, lower);
    tile = isl_basic_set_add_constraint(tile, upper);
    tile = isl_basic_set_add_constraint(tile, extent);
  }
  isl_space_free(s);
  return isl::manage(isl_set_from_basic_set(tile));
}

isl::set band_points(const band& b) {
  return b.embedding.range().extract_set(isl::manage(isl_multi_aff_get_space(b.placement.begin()->second.get())).range());
}

std::vector<std::string> tile_param_names(const band& b) {
  std::vector<std::string> names;
  for (const char* prefix : {"o_", "t_"})
    for (const auto& l : b.loops) names.push_back(prefix + l->name);
  return names;
}

std::vector<tile_traffic> tile_traffic_of(const architecture& a) {
  const design& d = *a.design;
  const band& b = *d.band;
  // Every tile is a phase of its own where each tile loop is a phase loop or has one tile.
  for (size_t pos = 0; pos < d.tile_order.size(); ++pos) {
    if (std::find(a.phase_loops.begin(), a.phase_loops.end(), pos) != a.phase_loops.end()) continue;
    const loop_id& l = d.tile_order[pos];
    if (tiles_at(b, b.position(l), a.point.factors.at({l, tile_level::array_partition})) > 1)
      throw error(fmt::format("tile_traffic: design {} runs several tiles of loop {} in one phase, where a PE may keep "
                              "values from one tile to the next; sadsl counts a tile's DRAM traffic only where every tile "
                              "is a phase of its own",
                              d.name(), l.name()));
  }
  const program& p = *b.source;
  tile_sets tiles(b);
  std::vector<tile_traffic> found;
  // Flow between tiles: into the tile, the sources outside it that a sink inside reads; out of
  // it, the sources inside that a sink outside reads.
  std::map<std::pair<statement_id, int>, isl::set> sourced;  // per read: the sink instances that have a source
  for (const auto& f : b.deps) {
    if (f.dep.kind != dep_kind::flow) continue;
    const statement_info& source = p.statement(f.dep.source);
    const statement_info& sink = p.statement(f.dep.sink);
    isl::map rel = tiles.aligned(f.dep.relation);
    isl::set source_in = tiles.inside(source), sink_in = tiles.inside(sink);
    isl::map crossing = isl::manage(isl_map_subtract_domain(rel.intersect_range(sink_in).release(), source_in.copy()));
    add(found, f.dep.tensor, true, crossing.domain(), crossing.range());
    add(found, f.dep.tensor, false, isl::manage(isl_map_subtract_range(rel.copy(), sink_in.copy())).domain().intersect(source_in));
    auto key = std::make_pair(f.dep.sink, f.dep.sink_access.read);
    isl::set sinks = rel.range();
    auto [it, fresh] = sourced.emplace(key, sinks);
    if (!fresh) it->second = it->second.unite(sinks);
  }
  for (const auto& st : p.statements()) {
    // Reads with no source in the program read DRAM: a kernel input's elements, an inout's
    // initial values.
    for (size_t r = 0; r < st.reads.size(); ++r) {
      const access_info& read = st.reads[r];
      if (read.tensor->role != tensor_role::input && read.tensor->role != tensor_role::inout) continue;
      isl::set reading = tiles.inside(st);
      if (auto it = sourced.find({st.id, static_cast<int>(r)}); it != sourced.end()) reading = reading.subtract(it->second);
      add(found, read.tensor->id(), true, reading.apply(tiles.aligned(read.relation)), reading);
    }
    // A kernel output's final values: the writes that no later write of the element overwrites.
    const access_info& w = st.write;
    if (w.tensor->role != tensor_role::output && w.tensor->role != tensor_role::inout) continue;
    isl::set final_writes = tiles.inside(st);
    for (const auto& o : b.deps)
      if (o.dep.kind == dep_kind::output && o.dep.source == st.id) final_writes = final_writes.subtract(tiles.aligned(o.dep.relation).domain());
    add(found, w.tensor->id(), false, final_writes);
  }
  return found;
}

bool moves_past_first_tile(const band& b, const tile_traffic& t, size_t x) {
  const std::string origin = tile_param_names(b).at(x);
  bool moves = false;
  t.values.foreach_set([&](const isl::set& s) {
    isl_set* past = s.copy();
    int o = isl_set_find_dim_by_name(past, isl_dim_param, origin.c_str());
    SADSL_INTERNAL_ASSERT(o >= 0, "a tile's sets have its origins as parameters");
    past = isl_set_lower_bound_si(past, isl_dim_param, static_cast<unsigned>(o), 1);
    moves = moves || !isl_set_is_empty(past);
    isl_set_free(past);
  });
  return moves;
}

tile_binding bind_tiles(const band& b, const std::vector<model::expr>& sizes, const std::vector<model::expr>& t1,
                        std::size_t& next_index) {
  const kernel& k = b.source->kernel();
  SADSL_INTERNAL_ASSERT(sizes.size() == k.params().size(), "bind_tiles: one expression per kernel param");
  SADSL_INTERNAL_ASSERT(t1.size() == b.loops.size(), "bind_tiles: one factor per band loop");
  tile_binding out;
  for (size_t q = 0; q < sizes.size(); ++q) out.values.emplace(k.params()[q].name(), sizes[q]);
  for (size_t x = 0; x < b.loops.size(); ++x) {
    out.index.push_back(model::expr::index(next_index++, "T_" + b.loops[x]->name));
    out.values.emplace("o_" + b.loops[x]->name, t1[x] * out.index.back());
    out.values.emplace("t_" + b.loops[x]->name, t1[x]);
  }
  return out;
}

model::expr first_tile(const band& b, size_t x, const tile_binding& bound, const std::vector<model::expr>& t1) {
  using model::expr;
  const affine& lo = b.loops.at(x)->lo;
  if (!lo.is_affine() || (lo.terms().empty() && lo.constant() <= 0)) return 0;
  expr least = static_cast<double>(lo.constant());
  for (const auto& term : lo.terms()) {
    const expr c = static_cast<double>(term.coefficient);
    if (term.symbol->kind == detail::symbol_kind::param) {
      auto value = bound.values.find(term.symbol->name);
      if (value == bound.values.end()) return 0;
      least = least + c * value->second;
      continue;
    }
    auto y = std::find_if(b.loops.begin(), b.loops.begin() + static_cast<std::ptrdiff_t>(x),
                          [&](const auto& l) { return l->seq == term.symbol->seq; });
    if (y == b.loops.begin() + static_cast<std::ptrdiff_t>(x)) return 0;  // not a loop outside x in the band
    const size_t at = static_cast<size_t>(y - b.loops.begin());
    // The loop's least value in its tile where the bound grows with it, its largest where it falls.
    const expr origin = t1[at] * bound.index[at];
    least = least + c * (term.coefficient > 0 ? origin : origin + t1[at] - expr(1));
  }
  return model::max(expr(0), model::floor_div(least, t1[x]));
}

isl::set relative_to_pe(const isl::set& s, size_t x, const std::string& origin, const std::string& name, pe_relation r) {
  isl_set* t = s.copy();
  int pe = isl_set_find_dim_by_name(t, isl_dim_param, name.c_str());
  if (pe < 0) {
    pe = static_cast<int>(isl_set_dim(t, isl_dim_param));
    t = isl_set_add_dims(t, isl_dim_param, 1);
    t = isl_set_set_dim_id(t, isl_dim_param, static_cast<unsigned>(pe), isl_id_alloc(isl_set_get_ctx(t), name.c_str(), nullptr));
  }
  const int o = isl_set_find_dim_by_name(t, isl_dim_param, origin.c_str());
  SADSL_INTERNAL_ASSERT(o >= 0, "relative_to_pe: the tile's origin is a parameter of its sets");
  isl_local_space* ls = isl_local_space_from_space(isl_set_get_space(t));
  isl_constraint* c = r == pe_relation::equal ? isl_constraint_alloc_equality(ls) : isl_constraint_alloc_inequality(ls);
  const int sign = r == pe_relation::at_or_before ? -1 : 1;
  c = isl_constraint_set_coefficient_si(c, isl_dim_set, static_cast<int>(x), sign);
  c = isl_constraint_set_coefficient_si(c, isl_dim_param, o, -sign);
  c = isl_constraint_set_coefficient_si(c, isl_dim_param, pe, -sign);
  if (r == pe_relation::after) c = isl_constraint_set_constant_si(c, -1);
  return isl::manage(isl_set_add_constraint(t, c));
}

bool lexicographic_prefix(const isl::set& part, const isl::set& whole) {
  isl_set* p = isl_set_align_params(part.copy(), isl_set_get_space(whole.get()));
  isl_set* w = isl_set_align_params(whole.copy(), isl_set_get_space(p));
  // {y : y before some point of part}, of whole
  isl_set* before = isl_set_apply(isl_set_copy(p), isl_map_lex_gt(isl_set_get_space(p)));
  before = isl_set_intersect(before, w);
  const isl_bool prefix = isl_set_is_subset(before, p);
  isl_set_free(before);
  isl_set_free(p);
  SADSL_INTERNAL_ASSERT(prefix != isl_bool_error, "lexicographic_prefix: isl decides the inclusion");
  return prefix == isl_bool_true;
}

model::expr count_bound(const isl::set& s, const std::map<std::string, model::expr>& values, std::size_t& next_index) {
  std::vector<model::expr> params;
  for (isl_size q = 0; q < isl_set_dim(s.get(), isl_dim_param); ++q) {
    isl_id* id = isl_set_get_dim_id(s.get(), isl_dim_param, static_cast<unsigned>(q));
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    auto value = values.find(name);
    SADSL_INTERNAL_ASSERT(value != values.end(), "count_bound: no expression for parameter " + name);
    params.push_back(value->second);
  }
  return point_count(s, params, next_index);
}

model::expr count_bound(const isl::union_set& s, const std::map<std::string, model::expr>& values, std::size_t& next_index) {
  model::expr total = 0;
  s.foreach_set([&](isl::set part) { total = total + count_bound(part, values, next_index); });
  return total;
}

model::expr traffic_over_tiles(const band& b, const tile_traffic& t, const std::vector<model::expr>& sizes,
                               const std::vector<model::expr>& t1, const std::vector<model::expr>& tiles,
                               std::size_t& next_index) {
  using model::expr;
  const size_t n = b.loops.size();
  SADSL_INTERNAL_ASSERT(t1.size() == n && tiles.size() == n, "traffic_over_tiles: one factor and tile count per band loop");
  const kernel& k = b.source->kernel();
  SADSL_INTERNAL_ASSERT(sizes.size() == k.params().size(), "traffic_over_tiles: one expression per kernel param");
  // The tiles of a loop start at 0: no point of the band lies below it.
  isl::set points = band_points(b);
  for (size_t x = 0; x < n; ++x) {
    isl::set below = isl::manage(isl_set_lower_bound_si(isl_set_copy(points.get()), isl_dim_set, static_cast<unsigned>(x), 0));
    if (!points.subtract(below).is_empty())
      throw error(fmt::format("traffic_over_tiles: band loop {} runs below 0, where tiles are not counted from", b.loops[x]->name));
  }
  tile_binding bound = bind_tiles(b, sizes, t1, next_index);
  expr per_tile = count_bound(t.values, bound.values, next_index);
  for (size_t x = n; x-- > 0;) per_tile = model::sum(bound.index[x], first_tile(b, x, bound, t1), tiles[x] - expr(1), per_tile);
  return per_tile;
}

}  // namespace sadsl::modeling
