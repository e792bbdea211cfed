// One-dimensional arrays whose every tile is a phase: their latency from the tiles' counts
// (chain_phases.hpp).
#include "chain_phases.hpp"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_set.h>

#include <map>
#include <string>

#include <fmt/format.h>

#include "sadsl/error.hpp"
#include "tile_traffic.hpp"

namespace sadsl::modeling {

namespace {

using model::expr;

// The name of the parameter that stands for a PE's index along the chain.
constexpr const char* pe_param = "sadsl_pe";

// The points of s whose coordinate x is at the tile's origin o_x plus the PE index (`equal`), or
// at or beyond it: s with the PE index as a parameter.
isl::set along_chain(const isl::set& s, size_t x, const std::string& origin, bool equal) {
  return relative_to_pe(s, x, origin, pe_param, equal ? pe_relation::equal : pe_relation::at_or_after);
}

// The points of `s` (n dims) beside a dim p at the end, x_c in place of p read at p: {(x, p) :
// x with x_c := p in s}.
isl_set* moved_along(isl_set* s, isl_space* pair, size_t c) {
  const unsigned n = static_cast<unsigned>(isl_set_dim(s, isl_dim_set));
  isl_aff_list* list = isl_aff_list_alloc(isl_set_get_ctx(s), static_cast<int>(n));
  isl_local_space* ls = isl_local_space_from_space(isl_space_copy(pair));
  for (unsigned d = 0; d < n; ++d)
    list = isl_aff_list_add(list, isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_set, d == c ? n : d));
  isl_local_space_free(ls);
  isl_space* to = isl_space_map_from_domain_and_range(pair, isl_set_get_space(s));
  return isl_set_preimage_multi_aff(isl_set_copy(s), isl_multi_aff_from_aff_list(to, list));
}

// An inequality a x_c + b p + o_coefficient o + constant >= 0 on (x, p).
isl_set* with_inequality(isl_set* pairs, size_t c, int a, int b, int origin, int o_coefficient, int constant) {
  const unsigned n = static_cast<unsigned>(isl_set_dim(pairs, isl_dim_set)) - 1;
  isl_constraint* k = isl_constraint_alloc_inequality(isl_local_space_from_space(isl_set_get_space(pairs)));
  k = isl_constraint_set_coefficient_si(k, isl_dim_set, static_cast<int>(c), a);
  k = isl_constraint_set_coefficient_si(k, isl_dim_set, static_cast<int>(n), b);
  if (o_coefficient != 0) k = isl_constraint_set_coefficient_si(k, isl_dim_param, origin, o_coefficient);
  k = isl_constraint_set_constant_si(k, constant);
  return isl_set_add_constraint(pairs, k);
}

// Whether a's network of `tensor` in from DRAM (input) or out to it passes a chain of modules
// beside the PEs (one at I/O level 1 per PE: a word of PE p passes p of them), not straight
// between the PEs and a module buffered above them (LU [j]'s U_tmp, leaving from the chain's
// last PE; its V, entering at the first).
bool along_chain_modules(const architecture& a, const tensor_id& tensor, bool input) {
  for (size_t n = 0; n < a.networks.size(); ++n) {
    if (a.networks[n].tensor != tensor || a.networks[n].input != input) continue;
    size_t level_one = 0;
    for (const auto& k : a.modules)
      if (k.network == static_cast<int>(n) && k.level == 1) level_one += k.instances.size();
    if (level_one > 1) return true;
  }
  return false;
}

}  // namespace

units_trend trend_along_chain(const isl::set& points, size_t c, const std::string& origin) {
  isl_set* s = isl_set_reset_tuple_id(points.copy());
  const unsigned n = static_cast<unsigned>(isl_set_dim(s, isl_dim_set));
  const int o = isl_set_find_dim_by_name(s, isl_dim_param, origin.c_str());
  SADSL_INTERNAL_ASSERT(o >= 0 && c < n, "chain_phases: the tile's origin is a parameter of its points");
  isl_set* pairs = isl_set_add_dims(isl_set_copy(s), isl_dim_set, 1);  // (x, p), x a point
  isl_space* pair_space = isl_set_get_space(pairs);
  isl_set* moved = moved_along(s, isl_space_copy(pair_space), c);
  // Falling: every point has one at each p from the tile's origin (t1 x T: not negative) up to
  // its own x_c (excluded).
  isl_set* below = with_inequality(with_inequality(isl_set_copy(pairs), c, 0, 1, o, -1, 0), c, 1, -1, o, 0, -1);
  below = with_inequality(below, c, 0, 0, o, 1, 0);
  isl_bool falling = isl_set_is_subset(below, moved);
  // Rising: ... at each p above its own x_c up to the tile's last PE with a point.
  isl_set* slices = isl_set_project_out(isl_set_project_out(isl_set_copy(s), isl_dim_set, static_cast<unsigned>(c) + 1,
                                                            n - static_cast<unsigned>(c) - 1),
                                        isl_dim_set, 0, static_cast<unsigned>(c));
  isl_set* up_to_last = isl_set_apply(slices, isl_map_lex_ge(isl_set_get_space(slices)));  // p <= some point's x_c
  up_to_last = isl_set_insert_dims(up_to_last, isl_dim_set, 0, n);
  isl_set* above = with_inequality(isl_set_intersect(pairs, up_to_last), c, -1, 1, o, 0, -1);
  isl_bool rising = isl_set_is_subset(above, moved);
  isl_set_free(below);
  isl_set_free(above);
  isl_set_free(moved);
  isl_space_free(pair_space);
  isl_set_free(s);
  if (falling == isl_bool_true) return units_trend::falling;
  if (rising == isl_bool_true) return units_trend::rising;
  return units_trend::unknown;
}

expr chain_phases_latency(const architecture& a, const std::vector<expr>& sizes, const std::vector<expr>& t1,
                          const std::vector<expr>& tiles, const std::function<expr(const tensor_id&, bool)>& elements_per_word,
                          size_t& next_index) {
  const design& d = *a.design;
  const band& b = *d.band;
  if (d.space.size() != 1)
    throw error(fmt::format("chain_phases: design {} has a {}-dimensional PE array; this composition describes a chain "
                            "of PEs along one space loop",
                            d.name(), d.space.size()));
  for (const auto& f : d.factors)
    if (f.id.loop == d.space.front() && f.id.level != tile_level::array_partition)
      throw error(fmt::format("chain_phases: design {} runs several values of its space loop {} in a PE ({}); this "
                              "composition counts one a PE",
                              d.name(), d.space.front().name(), d.name_of(f.id)));
  std::vector<tile_traffic> traffic = tile_traffic_of(a);  // refuses tiles that share a phase
  const size_t chain = b.position(d.space.front());
  const std::string origin = "o_" + b.loops[chain]->name;

  tile_binding tiling = bind_tiles(b, sizes, t1, next_index);
  const std::map<std::string, expr>& bound = tiling.values;
  const expr p = expr::index(next_index++, "p"), q = expr::index(next_index++, "q");
  std::map<std::string, expr> at_p = bound, at_q = bound;
  at_p.emplace(pe_param, p);
  at_q.emplace(pe_param, q);

  isl::set box = tile_box(b);
  isl::set points = isl::manage(isl_set_align_params(band_points(b).release(), isl_set_get_space(box.get()))).intersect(box);
  // The FIFO hops of LU's one-dimensional networks (DRAM module, one I/O level, the PEs) at the
  // timed simulation's FIFO latency of 1, as measured (docs/modeling.md): the first PE starts 2
  // cycles after the last input word left DRAM, 3 where the input passes a chain of modules
  // (the first one forwards the tile's words before it feeds its PE), and an output's DRAM
  // module sends a PE's first word 2 cycles after that PE's last unit.
  const expr hops = 2;
  expr start = hops;
  for (const auto& t : traffic)
    if (t.input) {
      const expr words = count_bound(t.values, bound, next_index) / elements_per_word(t.tensor, true);
      start = model::max(start, words + hops + expr(along_chain_modules(a, t.tensor, true) ? 1 : 0));
    }
  const expr last_pe = t1[chain] - expr(1);
  // A PE's units are its band points in the tile (one pipelined iteration each); PE p's longest
  // work of the PEs up to it: W_0 or W_p where the units fall or rise along the
  // chain in every tile (LU's [k]; [j] and [i]), which evaluates in O(P) a tile, not O(P^2).
  std::map<std::string, expr> at_0 = bound;
  at_0.emplace(pe_param, expr(0));
  const isl::set own_points = along_chain(points, chain, origin, true);
  expr most_work;
  switch (trend_along_chain(points, chain, origin)) {
    case units_trend::falling: most_work = count_bound(own_points, at_0, next_index); break;
    case units_trend::rising: most_work = count_bound(own_points, at_p, next_index); break;
    case units_trend::unknown: most_work = model::maximum(q, expr(0), p, count_bound(own_points, at_q, next_index)); break;
  }
  const expr end_p = start + p + most_work;
  expr phase = start;
  for (const auto& t : traffic) {
    if (t.input) continue;
    isl::set sent = t.values.apply(b.embedding).extract_set(points.space());
    sent = isl::manage(isl_set_align_params(sent.release(), isl_set_get_space(box.get())));
    const isl::set own_sent = along_chain(sent, chain, origin, true);
    expr own = count_bound(own_sent, at_p, next_index);
    // An output PE p writes in its first units (LU's U, the row j == k) is in by
    // e_p - (W_p - own): the PE runs its units back to back to its end; else by e_p.
    expr written = end_p;
    if (lexicographic_prefix(own_sent, own_points)) written = end_p - (count_bound(own_points, at_p, next_index) - own);
    // Where o drains through a module per PE, module p sends its PE's words once the PE has
    // written them, then forwards those of the modules behind it, so PE p's words pass p modules
    // before the L2 module takes them (a diagonal tile's first active PE stands down the
    // chain, and a chain's last PE, whose work is the longest in [j] and [i], ends last).
    const expr passage = along_chain_modules(a, t.tensor, false) ? p : expr(0);
    expr behind = count_bound(along_chain(sent, chain, origin, false), at_p, next_index) / elements_per_word(t.tensor, false);
    phase = model::max(phase, model::maximum(p, expr(0), last_pe, model::min(expr(1), own) * (written + hops + passage + behind)));
  }
  expr latency = model::min(expr(1), count_bound(points, bound, next_index)) * phase;
  // The tiles below a loop's first with a point hold none (LU's j and i tiles under k's).
  for (size_t x = b.loops.size(); x-- > 0;)
    latency = model::sum(tiling.index[x], first_tile(b, x, tiling, t1), tiles[x] - expr(1), latency);
  return latency;
}

}  // namespace sadsl::modeling
