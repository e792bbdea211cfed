// The storage of the FIFOs deepened along partial-sum chains (fifo_storage.hpp).
#include "fifo_storage.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "resources.hpp"
#include "sadsl/comm/fifo_depths.hpp"
#include "sadsl/error.hpp"

namespace sadsl::modeling {

namespace {

// 1 where x > 0, else 0, for integral x.
expr positive(const expr& x) { return model::min(expr(1), model::max(expr(0), x)); }

// The hops from the chain's first PE of the PEs that an input module kind's FIFOs feed, as a
// range lo..hi of the symbolic grid P along the chain, and its number of places (written as the
// modules' instances are, so that the instances per place simplify). Its instances feed one place
// (a chain's head, or a chain's last module), all but one (the other modules of a chain that runs
// along the dim: 0..P-1 less its first or its last hop), or every place; the template (two or more
// PEs along every space loop) says which end.
enum class span { one, all, without_first, without_last };

struct hop_places {
  expr lo, hi, count;
  span kind = span::all;
};

hop_places hop_range(const module_kind& kind, const partial_sum_chain& c, const std::set<int64_t>& at_template,
                     int64_t grid_at_template, const expr& grid) {
  auto dim = std::find(kind.index_dims.begin(), kind.index_dims.end(), c.dim);
  bool indexed = dim != kind.index_dims.end();
  bool chained = dim == kind.index_dims.begin() && indexed && !kind.dram;
  auto end = [&](int64_t hop) {
    SADSL_INTERNAL_ASSERT(hop == 0 || hop == grid_at_template - 1, "an input module feeds a PE inside a partial-sum chain");
    return hop == 0 ? expr(0) : grid - expr(1);
  };
  if (!indexed || (chained && kind.boundary)) {
    SADSL_INTERNAL_ASSERT(at_template.size() == 1, "an input module kind feeds PEs at several places along a chain it is not indexed by");
    expr hop = end(*at_template.begin());
    return {hop, hop, expr(1), span::one};
  }
  int64_t first = *at_template.begin(), last = *at_template.rbegin();
  if (chained) {
    SADSL_INTERNAL_ASSERT(static_cast<int64_t>(at_template.size()) == grid_at_template - 1, "a chain's modules feed all but one place");
    if (first == 0) return {expr(0), grid - expr(2), grid - expr(1), span::without_last};
    return {expr(1), grid - expr(1), grid - expr(1), span::without_first};
  }
  SADSL_INTERNAL_ASSERT(first == 0 && last == grid_at_template - 1 && static_cast<int64_t>(at_template.size()) == grid_at_template,
                        "an input module kind indexed by the chain's dim feeds every place");
  return {expr(0), grid - expr(1), grid, span::all};
}

// The first hop h >= 0 whose FIFO, 2 + h x step places of `bits` bits, holds more than `limit`
// bits (integral values, step >= 1): the least h with bits (2 + h step) >= limit + 1.
expr first_hop_over(const expr& bits, const expr& step, int64_t limit) {
  return model::max(expr(0), model::ceil_div(expr(static_cast<double>(limit + 1)) - expr(2) * bits, bits * step));
}

// The span whose sum a design's other spans build on: one of all places but an end, if any.
const hop_places* base_span(const std::vector<std::pair<std::pair<int, int>, hop_places>>& spans) {
  for (const auto& entry : spans)
    if (entry.second.kind == span::without_first || entry.second.kind == span::without_last) return &entry.second;
  return nullptr;
}

// deep_fifos_bram18k over `at`. A sum costs the model's evaluation a loop, so the kinds of a
// design share one: a span of every place is the base span's sum plus the end it leaves out (a
// sum and a term, which the search's bounds take as they are, where a difference would not be).
// MM's [i,k] and [j,k] designs: their models evaluate a tenth faster, same values.
expr bram18k_over(const expr& bits, const expr& step, const hop_places& at, const hop_places* base) {
  if (at.kind != span::all || !base) return deep_fifos_bram18k(bits, step, at.lo, at.hi);
  const expr& end = base->kind == span::without_first ? at.lo : at.hi;
  return deep_fifos_bram18k(bits, step, base->lo, base->hi) + deep_fifos_bram18k(bits, step, end, end);
}

}  // namespace

expr fifo_bram18k_of(const expr& bits, const expr& depth) {
  return positive(bits * depth - expr(1024)) * model::ceil_div(bits, expr(36)) * model::ceil_div(depth, expr(512));
}

expr fifo_ff_of(const expr& bits, const expr& depth) { return expr(5) + positive(bits * depth - expr(512)) * (bits + expr(5)); }

// Both are 0 below a depth and grow with it, so the sums start at the first h past it.
expr deep_fifos_bram18k(const expr& bits, const expr& step, const expr& lo, const expr& hi) {
  expr first = first_hop_over(bits, step, 1024);
  // FIFOs at one place (a chain's head or last PE): the sum below has that one term or none,
  // written so because a sum costs the model's evaluation a loop (MM's [k] designs: their models
  // evaluate a tenth faster).
  if (lo.same_as(hi))
    return model::ceil_div(bits, expr(36)) * positive(hi - first + expr(1)) * model::ceil_div(expr(2) + hi * step, expr(512));
  expr hop = expr::index(0, "hop");
  // sum ceil(depth / 512): the emitted model computes a sum of this form (ceil of an index's
  // affine function) without looping (model/emit_body.cpp).
  return model::ceil_div(bits, expr(36)) * model::sum(hop, model::max(lo, first), hi,
                                                      model::ceil_div(expr(2) + hop * step, expr(512)));
}

expr deep_fifos_ff(const expr& bits, const expr& step, const expr& lo, const expr& hi) {
  // A FIFO's flip-flops grow only where 2 places fit in 512 bits and its depth does not.
  expr wide_at_two = positive(bits * expr(2) - expr(512));
  expr grown = model::max(expr(0), hi - model::max(lo, first_hop_over(bits, step, 512)) + expr(1));
  return (expr(1) - wide_at_two) * grown * (bits + expr(5));
}

fifo_storage deep_fifo_storage(const architecture& a, const symbols& s, const std::vector<symbolic_module>& modules,
                               const std::vector<expr>& hops, const std::function<expr(int kind)>& tokens) {
  fifo_storage out;
  std::vector<partial_sum_chain> chains = partial_sum_chains(a);
  if (chains.empty()) return out;
  if (chains.size() > 1)
    throw error(fmt::format("design {}: partial sums flow along {} space loops; sadsl does not model the storage of its FIFOs yet",
                            a.design->name(), chains.size()));
  const partial_sum_chain& c = chains.front();
  // Per (input module kind, its port toward the PEs): the hops of the PEs its FIFOs feed.
  std::map<std::pair<int, int>, std::set<int64_t>> places;
  for (const auto& f : a.fifos)
    if (f.consumer_kind == 0 && a.modules.at(static_cast<size_t>(f.producer_kind)).role == module_role::io_in)
      places[{f.producer_kind, f.producer_port}].insert(
          partial_sum_place(a, chains, a.pe().instances.at(static_cast<size_t>(f.consumer_instance))));
  expr grid = s.grid(static_cast<size_t>(c.dim));
  std::vector<std::pair<std::pair<int, int>, hop_places>> spans;
  for (const auto& [key, at_template] : places)
    spans.emplace_back(key, hop_range(a.modules.at(static_cast<size_t>(key.first)), c, at_template,
                                      a.pe_grid.at(static_cast<size_t>(c.dim)), grid));
  const hop_places* base = base_span(spans);
  for (const auto& [key, at] : spans) {
    auto [k, port] = key;
    if (at.hi.is_constant(0)) continue;  // every FIFO at the chain's head: 2 deep
    const symbolic_port& q = modules.at(static_cast<size_t>(k)).ports.at(static_cast<size_t>(port));
    expr bits = q.lanes * expr(static_cast<double>(bits_of(q.element)));
    // The kind's instances are spread evenly over the places it feeds (none where the range is
    // empty: one PE along the chain).
    expr per_place = modules.at(static_cast<size_t>(k)).instances * q.present / model::max(expr(1), at.count);
    // The FIFO h hops along is 2 + h x step deep. step >= 1 at every point of the space (a tile
    // has a token, a hop a cycle); max(1, ..) only keeps the divisions below defined off it.
    expr step = model::max(expr(1), model::min(tokens(k), hops.at(static_cast<size_t>(c.dim))));
    out.bram18k = out.bram18k + per_place * bram18k_over(bits, step, at, base);
    out.ff = out.ff + per_place * deep_fifos_ff(bits, step, at.lo, at.hi);
  }
  return out;
}

}  // namespace sadsl::modeling
