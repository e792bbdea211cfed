// Routing: each read and write of each statement instance, classified by the dependences.
#include "sadsl/comm/routing.hpp"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "isl_util.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

std::vector<int64_t> pe_grid(const design& d, const design_point& v) {
  std::vector<int64_t> out;
  for (const auto& l : d.space) {
    int64_t t1 = v.at({l, tile_level::array_partition});
    if (auto lat = v.find({l, tile_level::latency_hiding}); lat != v.end()) t1 /= lat->second;
    else if (auto vec = v.find({l, tile_level::simd}); vec != v.end()) t1 /= vec->second;
    out.push_back(t1);
  }
  return out;
}

namespace {

// The pairs of a flow relation, by where source and sink run.
struct pair_classes {
  isl::union_map local, cross;
  std::vector<isl::union_map> neighbor;  // per space dim: the sink runs in the next PE along it
};

class router {
public:
  router(const design& d, const design_point& v, const instance_maps& m, const padding_plan& pad, std::vector<int64_t> grid)
      : d_(d), v_(v), m_(m), pad_(pad), p_(*d.band->source), grid_(std::move(grid)) {}

  routing build() {
    for (const auto& a : p_.arrays()) {
      if (!a.written) continue;
      tensor_id t = a.tensor->id();
      out_.persists[t] = persists(t);
      out_.key_loops[t] = key_positions(t).size();
      classify(t);
    }
    for (const auto& s : p_.statements()) {
      for (size_t r = 0; r < s.reads.size(); ++r) route_read(s, static_cast<int>(r));
      route_write(s);
    }
    share_reads();
    check_chain_orders();
    find_phases();
    return std::move(out_);
  }

private:
  // Made once per dependence (the classes and the reads' sources ask for the same pairs).
  const isl::union_map& flow_pairs(const dependence& dep) {
    auto it = pairs_.find(&dep);
    if (it == pairs_.end())
      it = pairs_.emplace(&dep, isl::union_map(dep.relation).intersect_params(m_.params).intersect_domain(m_.domain).intersect_range(m_.domain)).first;
    return it->second;
  }

  // The tile positions of the band loops some access of t uses: its local buffer's key.
  std::vector<size_t> key_positions(const tensor_id& t) const {
    std::vector<size_t> out;
    for (size_t pos = 0; pos < d_.tile_order.size(); ++pos) {
      bool used = false;
      for (const auto& s : p_.statements()) {
        used = used || (s.write.tensor->id() == t && s.write.uses(d_.tile_order[pos]));
        for (const auto& r : s.reads) used = used || (r.tensor->id() == t && r.uses(d_.tile_order[pos]));
      }
      if (used) out.push_back(pos);
    }
    return out;
  }

  // The tensor's local buffer lives across consecutive tiles when the tile loops it does not use
  // are innermost: the tiles that share its elements follow each other.
  bool persists(const tensor_id& t) const {
    auto key = key_positions(t);
    for (size_t i = 0; i < key.size(); ++i)
      if (key[i] != i) return false;
    return true;
  }

  // { S[x] -> key[k] }: the tile positions of t's buffer key of each instance.
  isl::union_map keyed(const tensor_id& t) const {
    auto key = key_positions(t);
    isl_space* sp = isl_space_set_from_params(m_.params.space().release());
    sp = isl_space_add_dims(sp, isl_dim_set, static_cast<unsigned>(d_.tile_order.size()));
    sp = isl_space_set_tuple_name(sp, isl_dim_set, "tile");
    std::vector<isl::aff> dims;
    isl::space tile_space = isl::manage(sp);
    for (size_t pos : key) dims.push_back(comm_isl::var_on(tile_space, static_cast<int>(pos)));
    return m_.tile.apply_range(isl::union_map(comm_isl::map_of(tile_space, dims, "key")));
  }

  // Whether every flow pair of t joins band points at the same value of space loop `dim`: a PE
  // coordinate is a function of its space loop's value alone, so no pair steps to the next PE
  // along it (the band's distances say so without composing relations).
  bool stays_along(const tensor_id& t, size_t dim) const {
    size_t pos = d_.band->position(d_.space[dim]);
    for (const auto& b : d_.band->deps) {
      if (b.dep.kind != dep_kind::flow || b.dep.tensor != t) continue;
      if (!b.uniform) return false;
      for (const auto& v : b.distances)
        if (!v.component_is(pos, 0)) return false;
    }
    return true;
  }

  pair_classes split(const isl::union_map& pairs, const tensor_id& t) const {
    pair_classes c;
    // The relations below only between the statements the pairs join: f and its inverse
    // composed over every statement pair cost far more (routing is most of that cost).
    isl::union_set from = pairs.domain().universe(), to = pairs.range().universe();
    // { x -> y : f(x) = f(y) }, or step(f(x)) = f(y) with a step.
    auto same = [&](const isl::union_map& f, const isl::union_map* step = nullptr) {
      isl::union_map image = f.intersect_domain(from);
      if (step) image = image.apply_range(*step);
      return image.apply_range(f.intersect_domain(to).reverse());
    };
    isl::union_map same_pe = same(m_.pe), same_tile = same(m_.tile);
    isl::union_map kept = same_tile;
    if (out_.persists.at(t)) kept = kept.unite(same(keyed(t)));
    c.local = pairs.intersect(same_pe).intersect(kept);
    isl::union_map rest = pairs.subtract(c.local);
    isl::space params = m_.params.space();
    for (size_t dim = 0; dim < d_.space.size(); ++dim) {  // pe(y) = pe(x) + e_dim
      if (stays_along(t, dim)) {  // what the intersections below would find
        c.neighbor.push_back(isl::manage(isl_union_map_empty_space(rest.space().release())));
        continue;
      }
      isl::union_map step(comm_isl::shift(params, "pe", static_cast<unsigned>(d_.space.size()), static_cast<unsigned>(dim), 1));
      c.neighbor.push_back(rest.intersect(same(m_.pe, &step)).intersect(same_tile));
      rest = rest.subtract(c.neighbor.back());
    }
    c.cross = rest;
    if (!c.cross.intersect(same_tile).is_empty())
      throw error(fmt::format("design {}: tensor \"{}\" moves between PEs that are not neighbours within a tile",
                              d_.name(), t.name()));
    return c;
  }

  // A band point's tile coordinates (tile order) and PE coordinates (space order), as the
  // instance maps give them for a statement's band point (compute/concrete.cpp).
  struct band_functions {
    isl::space space;
    std::vector<isl::aff> tile, pe;
  };
  const band_functions& on_band() {
    if (band_) return *band_;
    band_functions f;
    const isl::multi_aff& any = d_.band->placement.begin()->second;
    f.space = isl::manage(isl_space_range(isl_multi_aff_get_space(any.get())));
    f.space = isl::manage(isl_space_align_params(f.space.release(), m_.params.space().release()));
    std::map<loop_id, std::pair<isl::aff, isl::aff>> parts;  // tile, outer
    auto ids = d_.band->loop_ids();
    for (size_t pos = 0; pos < ids.size(); ++pos) {
      const loop_id& l = ids[pos];
      isl::aff b = comm_isl::var_on(f.space, static_cast<int>(pos));
      auto floor_div = [](const isl::aff& a, int64_t k) {
        return isl::manage(isl_aff_floor(isl_aff_scale_down_ui(a.copy(), static_cast<unsigned>(k))));
      };
      auto mod = [](const isl::aff& a, int64_t k) { return isl::manage(isl_aff_mod_val(a.copy(), isl_val_int_from_si(a.ctx().get(), k))); };
      bool lat = std::find(d_.latency.begin(), d_.latency.end(), l) != d_.latency.end(), vec = d_.simd == l;
      int64_t t1 = v_.at({l, tile_level::array_partition});
      isl::aff point = mod(b, t1);
      isl::aff outer = lat ? floor_div(point, v_.at({l, tile_level::latency_hiding}))
                       : vec ? floor_div(point, v_.at({l, tile_level::simd}))
                             : point;
      parts.emplace(l, std::make_pair(floor_div(b, t1), outer));
    }
    for (const auto& l : d_.tile_order) f.tile.push_back(parts.at(l).first);
    for (const auto& l : d_.space) f.pe.push_back(parts.at(l).second);
    band_ = std::move(f);
    return *band_;
  }

  // Flow pairs of tensor t by class when each of its dependences is uniform with one distance
  // vector d: a pair's class is a function of its sink's band point b alone (tiles and PEs are
  // functions of the band point, and the source's is b - d), so each class is the pairs whose sink
  // lies in a set of band points, made in the band's space and pulled back through each sink
  // statement's placement. No relation is composed with the PE and tile maps or their inverses,
  // and none subtracted from the pairs.
  std::optional<pair_classes> split_uniform(const tensor_id& t) {
    std::vector<std::pair<const dependence*, std::vector<int64_t>>> deps;
    for (const auto& b : d_.band->deps) {
      if (b.dep.kind != dep_kind::flow || b.dep.tensor != t) continue;
      if (!b.uniform || b.distances.size() != 1) return std::nullopt;
      auto distance = b.distances[0].constant();
      if (!distance || distance->size() != d_.band->loops.size()) return std::nullopt;
      deps.emplace_back(&b.dep, *distance);
    }
    const band_functions& f = on_band();
    auto keys = key_positions(t);
    pair_classes c;
    c.local = c.cross = empty_map();
    c.neighbor.assign(d_.space.size(), empty_map());
    for (const auto& [dep, distance] : deps) {
      // The source's band point b - d.
      isl_multi_aff* back = isl_multi_aff_identity_on_domain_space(f.space.copy());
      for (size_t pos = 0; pos < distance.size(); ++pos) {
        isl_aff* a = isl_multi_aff_get_at(back, static_cast<int>(pos));
        a = isl_aff_add_constant_si(a, static_cast<int>(-distance[pos]));
        back = isl_multi_aff_set_at(back, static_cast<int>(pos), a);
      }
      isl::multi_aff source = isl::manage(back);
      auto at_source = [&](const isl::aff& a) { return isl::manage(isl_aff_pullback_multi_aff(a.copy(), source.copy())); };
      auto equal = [&](const isl::aff& a, const isl::aff& b) { return isl::manage(isl_aff_eq_set(a.copy(), b.copy())); };
      isl::set universe = isl::set::universe(f.space), same_tile = universe, same_key = universe, same_pe = universe;
      for (size_t j = 0; j < f.tile.size(); ++j) {
        isl::set eq = equal(f.tile[j], at_source(f.tile[j]));
        same_tile = same_tile.intersect(eq);
        if (std::find(keys.begin(), keys.end(), j) != keys.end()) same_key = same_key.intersect(eq);
      }
      for (const auto& pe : f.pe) same_pe = same_pe.intersect(equal(pe, at_source(pe)));
      isl::set local = same_pe.intersect(out_.persists.at(t) ? same_tile.unite(same_key) : same_tile).coalesce();
      isl::set rest = universe.subtract(local);
      std::vector<isl::set> neighbor;
      for (size_t dim = 0; dim < d_.space.size(); ++dim) {  // pe(b) = pe(b - d) + e_dim, in the same tile
        if (stays_along(t, dim)) {
          neighbor.push_back(isl::set::empty(f.space));
          continue;
        }
        isl::set step = same_tile;
        for (size_t i = 0; i < f.pe.size(); ++i) {
          isl::aff from = at_source(f.pe[i]);
          if (i == dim) from = isl::manage(isl_aff_add_constant_si(from.release(), 1));
          step = step.intersect(equal(f.pe[i], from));
        }
        neighbor.push_back(step.coalesce());
        rest = rest.subtract(neighbor.back());
      }
      rest = rest.coalesce();
      isl::set near = rest.intersect(same_tile);  // other PEs in the same tile: not supported
      flow_pairs(*dep).foreach_map([&](isl::map pairs) {
        const statement_info& sink = p_.statement(isl_map_get_tuple_name(pairs.get(), isl_dim_out));
        isl::multi_aff place = isl::manage(isl_multi_aff_align_params(d_.band->placement.at(sink.id).copy(), f.space.copy()));
        auto with_sink_in = [&](const isl::set& points) {
          isl::set sinks = isl::manage(isl_set_preimage_multi_aff(points.copy(), place.copy()));
          return isl::union_map(pairs.intersect_range(sinks));
        };
        c.local = c.local.unite(with_sink_in(local));
        for (size_t dim = 0; dim < neighbor.size(); ++dim)
          if (!neighbor[dim].is_empty()) c.neighbor[dim] = c.neighbor[dim].unite(with_sink_in(neighbor[dim]));
        isl::union_map cross = with_sink_in(rest);
        c.cross = c.cross.unite(cross);
        if (!near.is_empty() && !cross.intersect_range(isl::union_set(isl::manage(isl_set_preimage_multi_aff(near.copy(), place.copy())))).is_empty())
          throw error(fmt::format("design {}: tensor \"{}\" moves between PEs that are not neighbours within a tile",
                                  d_.name(), t.name()));
      });
    }
    return c;
  }

  // Flow pairs of tensor t, by class; and its chain (the space dim its values move along).
  void classify(const tensor_id& t) {
    isl::union_map all = isl::union_map::empty(p_.context().ctx());
    for (const auto& b : d_.band->deps)
      if (b.dep.kind == dep_kind::flow && b.dep.tensor == t) all = all.unite(flow_pairs(b.dep));
    std::optional<pair_classes> uniform = split_uniform(t);
    pair_classes c = uniform ? std::move(*uniform) : split(all, t);
    std::optional<int> chain;
    for (size_t dim = 0; dim < c.neighbor.size(); ++dim) {
      if (c.neighbor[dim].is_empty()) continue;
      if (chain)
        throw error(fmt::format("design {}: tensor \"{}\" moves between PEs along two space loops ({} and {})",
                                d_.name(), t.name(), d_.space[static_cast<size_t>(*chain)].name(), d_.space[dim].name()));
      chain = static_cast<int>(dim);
      if (isl_union_map_is_single_valued(c.neighbor[dim].get()) != isl_bool_true)
        throw error(fmt::format("design {}: a value of tensor \"{}\" is read by several instances of the next PE along "
                                "{}",
                                d_.name(), t.name(), d_.space[dim].name()));
    }
    if (chain) out_.flow_chains[t] = *chain;
    classes_.emplace(t, std::move(c));
  }

  // { x : x runs in the first (or last) PE along space dim `dim` } (made once: every write of a
  // tensor asks for its chain's tail).
  const isl::union_set& pe_edge(int dim, bool last) {
    if (auto it = edges_.find({dim, last}); it != edges_.end()) return it->second;
    isl_space* sp = isl_space_set_from_params(m_.params.space().release());
    sp = isl_space_add_dims(sp, isl_dim_set, static_cast<unsigned>(d_.space.size()));
    sp = isl_space_set_tuple_name(sp, isl_dim_set, "pe");
    isl::set edge = isl::manage(isl_set_fix_si(isl_set_universe(sp), isl_dim_set, static_cast<unsigned>(dim),
                                               static_cast<int>(last ? grid_[static_cast<size_t>(dim)] - 1 : 0)));
    return edges_[{dim, last}] = isl::union_set(edge).apply(m_.pe.reverse());
  }

  isl::union_set instances(const statement_info& s) const {
    return isl::union_set(m_.domains.at(s.id));
  }

  void route_read(const statement_info& s, int r) {
    const access_info& a = s.reads[static_cast<size_t>(r)];
    access_route route{{s.id, r}, a.tensor->id(), empty(), empty(), empty(), empty(), std::nullopt, {}};
    isl::union_set all = instances(s);
    auto it = classes_.find(route.tensor);
    if (it == classes_.end()) {
      // Read-only data come from an in-network; all PEs along a space loop the access does not
      // use read the same elements, so the first PE forwards them along that chain (when every PE
      // runs the same instances: zero-padded designs). Not along a loop partial results flow
      // along too: the next PE needs those at the start of an accumulation, the previous one makes
      // them at its end, and the forwarded data would have to wait a whole accumulation in FIFOs.
      for (size_t dim = 0; dim < d_.space.size() && pad_.zero_padded && !route.chain_dim; ++dim) {
        bool flows = std::any_of(out_.flow_chains.begin(), out_.flow_chains.end(),
                                 [&](const auto& c) { return c.second == static_cast<int>(dim); });
        if (!a.uses(d_.space[dim]) && !flows) route.chain_dim = static_cast<int>(dim);
      }
      (route.chain_dim ? route.chain : route.network) = all;
      out_.reads.push_back(std::move(route));
      return;
    }
    const pair_classes& c = it->second;
    isl::union_map own = empty_map();  // this access's flow pairs
    for (const auto& b : d_.band->deps)
      if (b.dep.kind == dep_kind::flow && b.dep.sink_access == route.access) own = own.unite(flow_pairs(b.dep));
    isl::union_set sourced = own.range();
    // The classes hold the pairs of every read of the tensor. With one read in the statement, an
    // instance's pair is its own; with two, the other read's pair would class it too.
    bool twice = reads_twice(s, route.tensor);
    auto sinks = [&](const isl::union_map& pairs) { return (twice ? pairs.intersect(own) : pairs).range(); };
    isl::union_set neighbor = isl::union_set::empty(p_.context().ctx());
    for (const auto& n : c.neighbor) neighbor = neighbor.unite(sinks(n));
    route.local = sinks(c.local).intersect(all);
    neighbor = neighbor.intersect(all);
    isl::union_set from_dram = sinks(c.cross).intersect(all).unite(all.subtract(sourced));
    if (auto chain = out_.flow_chains.find(route.tensor); chain != out_.flow_chains.end()) {
      route.chain_dim = chain->second;
      isl::union_set head = pe_edge(chain->second, false);
      route.chain = neighbor.unite(from_dram.intersect(head));
      route.network = from_dram.subtract(head);
    } else {
      route.network = from_dram;
    }
    if (twice) {
      check_partition(s, route.access, {route.local, route.chain, route.network});
      isl::union_map from_previous = empty_map();
      for (const auto& n : c.neighbor) from_previous = from_previous.unite(n.intersect(own));
      check_one_chain_read(s, route, from_previous);
    }
    out_.reads.push_back(std::move(route));
  }

  // A read whose element an earlier read of the same PE iteration holds takes that read's
  // register instead of a token: one token per element and iteration, so the PE reads each FIFO
  // at most once per pipelined iteration, which Vitis needs for II 1 (two statements reading
  // A(i, k) at one point would otherwise each take a token of A). The earlier read is of an
  // earlier statement of the iteration, or earlier in the same statement (the reads are routed
  // in that order, the PE runs them in it), whatever its own route: its register holds the
  // element. Only tokens are shared (a local read costs no port). A chain's instances are shared
  // all or none: each PE forwards the tokens it takes, so the PEs along the chain must agree on
  // which reads take them.
  void share_reads() {
    for (size_t later = 0; later < out_.reads.size(); ++later) {
      access_route& r = out_.reads[later];
      for (size_t earlier = 0; earlier < later && !(r.chain.is_empty() && r.network.is_empty()); ++earlier) {
        const access_route& e = out_.reads[earlier];
        if (e.tensor != r.tensor) continue;
        isl::union_set held = holding(r.access, e.access, r.chain.unite(r.network));
        isl::union_set taken = r.network.intersect(held);
        if (!r.chain.is_empty() && r.chain.is_subset(held)) taken = taken.unite(r.chain);
        if (taken.is_empty()) continue;
        r.chain = r.chain.subtract(taken);
        r.network = r.network.subtract(taken);
        r.shared.emplace_back(e.access, taken);
      }
    }
  }

  // The instances among `sinks` (of read `later`) at whose band point and inner loops an
  // instance of read `earlier` reads the same element.
  isl::union_set holding(const access_ref& later, const access_ref& earlier, const isl::union_set& sinks) const {
    // The element maps without their domains' constraints: a padded instance outside the
    // kernel's domain reads by the same index function.
    auto element = [&](const access_ref& a) {
      const isl::map& rel = p_.access(a).relation;
      return isl::union_map(isl::manage(isl_map_gist_domain(rel.copy(), isl_map_domain(rel.copy()))));
    };
    isl::union_map at = m_.order.intersect_domain(sinks);
    isl::union_map before = m_.order.intersect_domain(instances(p_.statement(earlier.statement)));
    isl::union_map same_point = at.apply_range(before.reverse());
    isl::union_map same_element = element(later).intersect_domain(sinks).apply_range(element(earlier).reverse());
    return same_point.intersect(same_element).domain();
  }

  void route_write(const statement_info& s) {
    access_route route;
    route.access = {s.id, -1};
    route.tensor = s.write.tensor->id();
    route.local = route.chain = route.network = route.drain = empty();
    isl::union_set all = instances(s);
    const pair_classes& c = classes_.at(route.tensor);
    route.local = c.local.domain().intersect(all);
    isl::union_set neighbor = empty();
    for (const auto& n : c.neighbor) neighbor = neighbor.unite(n.domain());
    neighbor = neighbor.intersect(all);
    isl::union_set cross = c.cross.domain().intersect(all);
    isl::union_set finals = empty();
    tensor_role role = s.write.tensor->role;
    if (role == tensor_role::output || role == tensor_role::inout) {
      isl::union_set overwritten = empty();
      for (const auto& b : d_.band->deps)
        if (b.dep.kind == dep_kind::output && b.dep.source == s.id) overwritten = overwritten.unite(flow_pairs(b.dep).domain());
      finals = all.subtract(overwritten);
    }
    if (auto chain = out_.flow_chains.find(route.tensor); chain != out_.flow_chains.end()) {
      route.chain_dim = chain->second;
      isl::union_set tail = pe_edge(chain->second, true);
      route.chain = neighbor.unite(cross.intersect(tail)).unite(finals.intersect(tail));
      route.network = cross.subtract(tail);
      route.drain = finals.subtract(tail);
    } else {
      route.network = cross;
      route.drain = finals;
    }
    out_.writes.push_back(std::move(route));
  }

  // The classes of a read must split its instances exactly. They cover them by construction: an
  // instance without a flow pair comes from DRAM, and one with a pair is in the range of the local,
  // neighbour or cross pairs, which split all pairs. (Testing it too was the costliest set
  // operation of the routing: a subtraction from sets with unknown divisions.) Each instance has
  // one flow pair at most per read (its value's last writer), so with one read of the tensor the
  // classes are disjoint without a test; a statement that reads it twice has its classes cut to
  // the read's own pairs (route_read), and they are tested.
  bool reads_twice(const statement_info& s, const tensor_id& t) const {
    return std::count_if(s.reads.begin(), s.reads.end(), [&](const access_info& a) { return a.tensor->id() == t; }) > 1;
  }

  // A chain is a FIFO: the next PE must read the values in the order this PE writes them. It
  // does when each PE sends at most one value and reads at most one at each point of its program
  // (statements under disjoint guards), and every value moves by the same step of the program's
  // order (band point and loops below the band): a translation keeps the lexicographic order.
  // (MM's partial sums step one k along the chain; out0(l1) and out0(l1 + 1) written by two
  // statements would arrive out of order.) Chains of several tensors along one loop join the same
  // two PEs: their values must keep that order together, or a PE that waits for one tensor's
  // value while the other's FIFO is full would wait forever.
  void check_chain_orders() const {
    for (size_t dim = 0; dim < d_.space.size(); ++dim) {
      std::vector<std::string> names;
      isl::union_map pairs = empty_map();
      for (const auto& [t, chain] : out_.flow_chains) {
        if (chain != static_cast<int>(dim)) continue;
        names.push_back(fmt::format("\"{}\"", t.name()));
        pairs = pairs.unite(classes_.at(t).neighbor.at(dim));
      }
      if (names.empty() || keeps_order(pairs)) continue;
      throw error(fmt::format("design {}: the values of {} {} on {} chain{} along {} would reach the next PE in another order "
                              "than it reads them; sadsl cannot build this design",
                              d_.name(), names.size() > 1 ? "tensors" : "tensor", fmt::join(names, " and "),
                              names.size() > 1 ? "their" : "its", names.size() > 1 ? "s" : "", d_.space[dim].name()));
    }
  }

  bool keeps_order(const isl::union_map& pairs) const {
    isl::union_map sent = m_.order.intersect_domain(pairs.domain()), read = m_.order.intersect_domain(pairs.range());
    isl::union_set steps = pairs.apply_domain(m_.order).apply_range(m_.order).deltas();
    if (steps.is_empty() || isl_union_set_n_set(steps.get()) != 1) return false;
    isl::set step = isl::manage(isl_set_from_union_set(steps.release()));
    return isl_set_is_singleton(step.get()) == isl_bool_true && isl_union_map_is_injective(sent.get()) == isl_bool_true &&
           isl_union_map_is_injective(read.get()) == isl_bool_true;
  }

  // The previous PE sends each value once: two reads of one value from the chain in one instance
  // (out0(l1 + 1) as the accumulator and again on the right-hand side) would wait for a second
  // token that never comes.
  void check_one_chain_read(const statement_info& s, const access_route& route, const isl::union_map& from_previous) {
    for (const auto& [other, also] : from_previous_pe_) {
      if (other.statement != s.id || p_.access(other).tensor->id() != route.tensor) continue;
      if (!also.intersect(from_previous).is_empty())
        throw error(fmt::format("design {}: statement {} reads one value of tensor \"{}\" twice from the previous PE along "
                                "{} ({} and {}) in one instance; sadsl passes each value once along a chain",
                                d_.name(), s.name(), route.tensor.name(), d_.space[static_cast<size_t>(*route.chain_dim)].name(),
                                access_text(p_, other), access_text(p_, route.access)));
    }
    from_previous_pe_.emplace_back(route.access, from_previous);
  }

  void check_partition(const statement_info& s, const access_ref& a, const std::vector<isl::union_set>& parts) const {
    isl::union_set covered = empty();
    for (const auto& part : parts) {
      SADSL_INTERNAL_ASSERT(covered.intersect(part).is_empty(),
                            fmt::format("design {}: two sources for some instance of {} {}", d_.name(), s.name(),
                                        access_text(p_, a)));
      covered = covered.unite(part);
    }
  }

  // Tile loops that a reload crosses run on the host: then no invocation reads from DRAM what it
  // writes itself. A value kept on chip must not cross them.
  // (The tile pairs are composed only where they can matter: a tensor without reloads crosses no
  // tile loop, and a buffer that does not persist keeps values within one tile.)
  void find_phases() {
    isl::union_map crossing = empty_map(), kept = empty_map();
    for (const auto& [t, c] : classes_)
      if (!c.cross.is_empty()) crossing = crossing.unite(c.cross.apply_domain(m_.tile).apply_range(m_.tile));
    size_t n = d_.tile_order.size();
    if (!crossing.is_empty())
      for (size_t j = 0; j < n; ++j)
        if (!crossing.intersect(first_difference_at(j, n)).is_empty()) out_.phase_loops.push_back(j);
    if (out_.phase_loops.empty()) return;
    for (const auto& [t, c] : classes_)
      if (out_.persists.at(t)) kept = kept.unite(c.local.apply_domain(m_.tile).apply_range(m_.tile));
    for (size_t j : out_.phase_loops)
      if (!kept.intersect(differs_at(j, n)).is_empty())
        throw error(fmt::format("design {}: a value kept in a PE's buffer crosses tile loop {}, which a reload runs on "
                                "the host",
                                d_.name(), d_.tile_order[j].name()));
  }

  isl::union_map tile_pairs(size_t n) const {
    isl_space* sp = isl_space_set_from_params(m_.params.space().release());
    sp = isl_space_add_dims(sp, isl_dim_set, static_cast<unsigned>(n));
    sp = isl_space_set_tuple_name(sp, isl_dim_set, "tile");
    return isl::union_map(isl::manage(isl_map_universe(isl_space_map_from_set(sp))));
  }

  // { T -> T' : equal before position j, different at j }.
  isl::union_map first_difference_at(size_t j, size_t n) const {
    isl_map* m = isl_map_from_union_map(tile_pairs(n).release());
    for (size_t i = 0; i < j; ++i) m = isl_map_equate(m, isl_dim_in, static_cast<int>(i), isl_dim_out, static_cast<int>(i));
    isl::map prefix = isl::manage(m);
    isl::map same = isl::manage(isl_map_equate(prefix.copy(), isl_dim_in, static_cast<int>(j), isl_dim_out, static_cast<int>(j)));
    return isl::union_map(prefix.subtract(same));
  }

  isl::union_map differs_at(size_t j, size_t n) const {
    isl::map all = isl::manage(isl_map_from_union_map(tile_pairs(n).release()));
    isl::map same = isl::manage(isl_map_equate(all.copy(), isl_dim_in, static_cast<int>(j), isl_dim_out, static_cast<int>(j)));
    return isl::union_map(all.subtract(same));
  }

  isl::union_set empty() const { return isl::union_set::empty(p_.context().ctx()); }
  isl::union_map empty_map() const { return isl::union_map::empty(p_.context().ctx()); }

  const design& d_;
  const design_point& v_;
  const instance_maps& m_;
  const padding_plan& pad_;
  const program& p_;
  std::vector<int64_t> grid_;
  std::map<tensor_id, pair_classes> classes_;
  std::map<const dependence*, isl::union_map> pairs_;
  std::map<std::pair<int, bool>, isl::union_set> edges_;
  std::vector<std::pair<access_ref, isl::union_map>> from_previous_pe_;  // flow pairs of the reads of tensors read twice
  std::optional<band_functions> band_;
  routing out_;
};

}  // namespace

routing route(const design& d, const design_point& p, const instance_maps& maps, const padding_plan& pad) {
  return router(d, p, maps, pad, pe_grid(d, p)).build();
}

}  // namespace sadsl
