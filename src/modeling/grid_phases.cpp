// Two-dimensional arrays whose every tile is a phase: their latency from the tiles' counts
// (grid_phases.hpp).
#include "grid_phases.hpp"

#include <isl/set.h>
#include <isl/union_set.h>

#include <array>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "chain_phases.hpp"
#include "sadsl/error.hpp"
#include "tile_traffic.hpp"

namespace sadsl::modeling {

namespace {

using model::expr;
using relation = pe_relation;

// The hops of the grid's networks at a FIFO latency of 1 (grid_phases.hpp), measured against the
// timed simulation's traces (docs/modeling.md, "Triangular designs"): a PE's first unit HIN
// cycles after its input's last word left DRAM; an output's DRAM module takes a PE's first word
// HOUT cycles after the PE's last unit.
constexpr int hops_in = 3;
constexpr int hops_out = 4;
// The depth of the FIFOs between PEs: a triangular design deepens none (performance_model
// refuses one that does).
constexpr int fifo_depth = 2;

// The parameter that stands for a PE's index along grid dim g.
std::string pe_param(size_t g) { return fmt::format("sadsl_pe{}", g); }

// The band points of a union of statement instances (a tile's values or readers), in the tile's
// parameters.
isl::set placed(const band& b, const isl::union_set& instances, const isl::set& box) {
  isl::set points = instances.apply(b.embedding).extract_set(box.space());
  return isl::manage(isl_set_align_params(points.release(), isl_set_get_space(box.get())));
}

// The network of a's that moves `tensor` in that direction (a flow's or an output's).
const io_network& network_of(const architecture& a, const tensor_id& tensor, bool input) {
  const io_network* found = nullptr;
  for (const auto& n : a.networks)
    if (n.tensor == tensor && n.input == input) {
      if (found)
        throw error(fmt::format("grid_phases: design {} moves tensor \"{}\" {} DRAM through two networks; this "
                                "composition orders one network's words",
                                a.design->name(), tensor.name(), input ? "from" : "to"));
      found = &n;
    }
  SADSL_INTERNAL_ASSERT(found, "a tensor a tile moves through DRAM has a network: " + tensor.name());
  return *found;
}

// One tile's terms: the band, its box, the grid dims' band positions and origins, the PE indices
// and the parameters' values at PE (a, b).
struct grid_tile {
  const band& b;
  isl::set box, points;
  std::array<size_t, 2> at;           // band position of grid dim g
  std::array<std::string, 2> origin;  // o_<loop> of grid dim g
  std::array<expr, 2> pe;             // the PE's index along grid dim g
  std::map<std::string, expr> bound;  // the tile's parameters

  std::map<std::string, expr> at_pe(const expr& p0, const expr& p1) const {
    std::map<std::string, expr> v = bound;
    v.emplace(pe_param(0), p0);
    v.emplace(pe_param(1), p1);
    return v;
  }
  // s's points at the PE (a, b), both coordinates related as r0 and r1 say.
  isl::set relative(const isl::set& s, relation r0, relation r1) const {
    return relative_to_pe(relative_to_pe(s, at[0], origin[0], pe_param(0), r0), at[1], origin[1], pe_param(1), r1);
  }
  isl::set own(const isl::set& s) const { return relative(s, relation::equal, relation::equal); }
};

// The most units of the PEs up to (a, b) along both dims: the units at (a, b) with each index
// taken at 0 where they fall along its dim and at itself where they rise, else a maximum over it.
expr most_units(const grid_tile& t, const isl::set& own, const std::array<units_trend, 2>& trend, std::size_t& next_index) {
  std::array<expr, 2> where;
  std::array<std::optional<expr>, 2> over;
  for (size_t g = 0; g < 2; ++g) {
    if (trend[g] == units_trend::falling) where[g] = expr(0);
    else if (trend[g] == units_trend::rising) where[g] = t.pe[g];
    else {
      over[g] = expr::index(next_index++, fmt::format("q{}", g));
      where[g] = *over[g];
    }
  }
  expr units = count_bound(own, t.at_pe(where[0], where[1]), next_index);
  for (size_t g = 2; g-- > 0;)
    if (over[g]) units = model::maximum(*over[g], expr(0), t.pe[g], units);
  return units;
}

}  // namespace

expr grid_phases_latency(const architecture& a, const std::vector<expr>& sizes, const std::vector<expr>& t1,
                         const std::vector<expr>& tiles, const std::function<expr(const tensor_id&, bool)>& elements_per_word,
                         size_t& next_index) {
  const design& d = *a.design;
  const band& b = *d.band;
  if (d.space.size() != 2)
    throw error(fmt::format("grid_phases: design {} has a {}-dimensional PE array; this composition describes a grid of "
                            "PEs along two space loops",
                            d.name(), d.space.size()));
  for (const auto& f : d.factors)
    for (const auto& l : d.space)
      if (f.id.loop == l && f.id.level != tile_level::array_partition)
        throw error(fmt::format("grid_phases: design {} runs several values of its space loop {} in a PE ({}); this "
                                "composition counts one a PE",
                                d.name(), l.name(), d.name_of(f.id)));
  std::vector<tile_traffic> traffic = tile_traffic_of(a);  // refuses tiles that share a phase
  tile_binding tiling = bind_tiles(b, sizes, t1, next_index);
  isl::set box = tile_box(b);
  isl::set points = isl::manage(isl_set_align_params(band_points(b).release(), isl_set_get_space(box.get()))).intersect(box);
  grid_tile t{b, box, points, {}, {}, {expr::index(next_index, "a"), expr::index(next_index + 1, "b")}, tiling.values};
  next_index += 2;
  for (size_t g = 0; g < 2; ++g) {
    t.at[g] = b.position(d.space[g]);
    t.origin[g] = "o_" + b.loops[t.at[g]]->name;
  }
  const std::map<std::string, expr> here = t.at_pe(t.pe[0], t.pe[1]);

  // The latest start of the PEs up to (a, b), less their hops: an exterior input's barrier, an
  // interior one's words up to b's L2 module.
  const isl::set own_points = t.own(t.points);
  const expr units = count_bound(own_points, here, next_index);
  std::array<units_trend, 2> trend;
  for (size_t g = 0; g < 2; ++g) trend[g] = trend_along_chain(t.points, t.at[g], t.origin[g]);
  struct streamed {
    isl::set upto;  // its readers at the PEs up to the one at c1's PE parameter
    expr per_word;
    size_t c1;
  };
  std::vector<streamed> interior_inputs;
  expr barrier = hops_in, start = hops_in;
  for (const auto& x : traffic) {
    if (!x.input) continue;
    const io_network& net = network_of(a, x.tensor, true);
    const expr per_word = elements_per_word(x.tensor, true);
    if (net.type == io_type::exterior) {
      barrier = model::max(barrier, count_bound(x.values, tiling.values, next_index) / per_word + expr(hops_in));
      continue;
    }
    const size_t c1 = static_cast<size_t>(net.cluster_order.at(1));
    isl::set upto = relative_to_pe(placed(b, x.readers, box), t.at[c1], t.origin[c1], pe_param(c1), relation::at_or_before);
    start = model::max(start, count_bound(upto, here, next_index) / per_word + expr(hops_in));
    interior_inputs.push_back({upto, per_word, c1});
  }
  start = model::max(barrier, start);

  // PE (a, b)'s units follow those of the PE up to it with the most (W* of them, at index 0
  // along a dim where the units fall, else taken at its own index): its first unit comes
  // after that PE's first W* - W, W its own. A PE also runs at most fifo_depth units ahead of the
  // next along the dim an interior input streams along (the values it passes on wait in a FIFO of
  // that depth until the next PE starts), so that PE's m-th unit waits for the start of the PE
  // floor((m - 1) / fifo_depth) further on: where an input streams slowly and the PEs have much to
  // do, a row of PEs ends almost together, and the PEs below a row start as late as the row's
  // units they follow. So PE (a, b)'s n-th unit ends, less a + b, by the later of the streamed
  // start plus W* - W + n - 1 and each such wait for unit m = W* - W + n.
  const expr most = most_units(t, own_points, trend, next_index);
  const expr before = model::max(expr(0), most - units);
  std::array<expr, 2> leading;
  for (size_t g = 0; g < 2; ++g) leading[g] = trend[g] == units_trend::falling ? expr(0) : t.pe[g];
  auto unit_end = [&](const expr& n) {
    const expr m = before + n;
    expr latest = start + m - expr(1);
    for (const auto& x : interior_inputs) {
      std::array<expr, 2> further = leading;
      further[x.c1] = model::min(leading[x.c1] + model::floor_div(model::max(expr(0), m - expr(1)), expr(fifo_depth)),
                                 t1[t.at[x.c1]] - expr(1));
      const expr waits = count_bound(x.upto, t.at_pe(further[0], further[1]), next_index) / x.per_word + expr(hops_in);
      latest = model::max(latest, waits + m - expr(1));
    }
    return latest + t.pe[0] + t.pe[1];
  };
  const expr end = unit_end(units);

  const expr last0 = t1[t.at[0]] - expr(1), last1 = t1[t.at[1]] - expr(1);
  expr phase = barrier;
  for (const auto& x : traffic) {
    if (x.input) continue;
    const io_network& net = network_of(a, x.tensor, false);
    const isl::set sent = placed(b, x.values, box);
    const isl::set own_sent = t.own(sent);
    const expr own = count_bound(own_sent, here, next_index);
    // Words a PE writes in its first units are in once it has run them, the others at its end
    // (chain_phases.cpp).
    const expr written = lexicographic_prefix(own_sent, own_points) ? unit_end(own) : end;
    // Its words from PE (a, b) on, in the order its chain drains them, and the modules they pass.
    expr behind, passage;
    if (net.type == io_type::interior) {
      const size_t c0 = static_cast<size_t>(net.cluster_order.at(0)), c1 = static_cast<size_t>(net.cluster_order.at(1));
      // Its L2 module's PEs from (a, b) on along c0, then those of the L2 modules after it.
      const isl::set same_module = relative_to_pe(sent, t.at[c1], t.origin[c1], pe_param(c1), relation::equal);
      behind = count_bound(relative_to_pe(same_module, t.at[c0], t.origin[c0], pe_param(c0), relation::at_or_after), here, next_index) +
               count_bound(relative_to_pe(sent, t.at[c1], t.origin[c1], pe_param(c1), relation::after), here, next_index);
      passage = t.pe[0] + t.pe[1];
    } else {
      const size_t other = net.along.value() == 0 ? 1 : 0;
      behind = count_bound(relative_to_pe(sent, t.at[other], t.origin[other], pe_param(other), relation::at_or_after), here, next_index);
      passage = t.pe[other];
    }
    behind = behind / elements_per_word(x.tensor, false);
    const expr ends = model::min(expr(1), own) * (written + expr(hops_out) + passage + behind);
    phase = model::max(phase, model::maximum(t.pe[0], expr(0), last0, model::maximum(t.pe[1], expr(0), last1, ends)));
  }
  expr latency = model::min(expr(1), count_bound(points, tiling.values, next_index)) * phase;
  for (size_t x = b.loops.size(); x-- > 0;)
    latency = model::sum(tiling.index[x], first_tile(b, x, tiling, t1), tiles[x] - expr(1), latency);
  return latency;
}

}  // namespace sadsl::modeling
