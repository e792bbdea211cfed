// The PE array's wavefront and single-buffered drains (pe_pipeline.hpp).
#include "pe_pipeline.hpp"

#include <algorithm>
#include <optional>

#include "part_cost.hpp"

namespace sadsl::modeling {

namespace {

// The cycles an element of `tensor` (written by the PEs) stays in a PE between its read and its
// write: the frame dims its index does not depend on, nested inside one it does depend on, run
// whole in between (a reduction inside the PE: CNN's p and q for cout(r, c, o)).
expr lifetime(const program& prog, const symbols& s, const pe_frame& f, const tensor_id& tensor) {
  expr out = 0;
  for (const auto& st : prog.statements()) {
    if (st.write.tensor->id() != tensor) continue;
    std::vector<bool> indexing = s.frame_dims_indexing({st.id, -1});
    bool inside = false;
    expr here = 0;
    for (size_t d = 0; d < indexing.size(); ++d) {
      auto stride = f.strides.find(d);
      if (!indexing[d] && inside && stride != f.strides.end()) here = here + (f.extents[d] - expr(1)) * stride->second;
      inside = inside || indexing[d];
    }
    out = model::max(out, here);
  }
  return out;
}

}  // namespace

std::vector<expr> wavefront_hops(const architecture& a, const symbols& s, const pe_frame& f) {
  const program& prog = *a.design->band->source;
  std::vector<expr> hops(a.design->space.size(), expr(0));
  for (const auto& n : a.networks)
    if (n.along) {
      expr& hop = hops.at(static_cast<size_t>(*n.along));
      hop = model::max(hop, expr(1) + lifetime(prog, s, f, n.tensor));  // one cycle: the default FIFO latency
    }
  return hops;
}

expr full_wavefront(const symbols& s, const std::vector<expr>& hops) {
  expr w = 0;
  for (size_t i = 0; i < hops.size(); ++i)
    if (!hops[i].is_constant(0)) w = w + (s.grid(i) - expr(1)) * hops[i];
  return w;
}

namespace {

// Per space dim: how far apart input network n starts the PEs along it. The chain of level
// buffered + l (l >= 1, unbuffered) runs along cluster_order[l]; its head moves every buffered
// chain's data, one after another: its step over the PEs along the dim.
std::vector<expr> input_stagger(const architecture& a, const symbols& s, size_t n, const std::vector<module_timing>& timings) {
  const io_network& net = a.networks[n];
  std::vector<expr> stagger(a.design->space.size(), expr(0));
  for (size_t k = 0; k < a.modules.size(); ++k) {
    const module_kind& kind = a.modules[k];
    size_t l = static_cast<size_t>(kind.level - net.buffered_level);
    if (kind.network != static_cast<int>(n) || kind.boundary || l < 1 || l >= net.cluster_order.size()) continue;
    size_t dim = static_cast<size_t>(net.cluster_order[l]);
    stagger[dim] = model::max(stagger[dim], timings[k].step / s.grid(dim));
  }
  return stagger;
}

}  // namespace

void set_wavefronts(const architecture& a, const symbols& s, const std::vector<expr>& hops,
                    std::vector<module_timing>& timings) {
  // Per dim, the cycles each PE along it starts after the one before: `hops` where the input
  // does not stagger them. A daisy chain forwards the words of the groups after the first a
  // module a cycle, so group g of an unbuffered chain has its data at (g + 1) x stagger + g, and
  // the modules of a buffered chain start their PEs a cycle apart (its head's fill passes the
  // last words on): the last PE along such a dim starts (PEs - 1) x max(1, hop - stagger) after
  // the fill, not max(0, ...).
  auto wavefront = [&](const std::vector<expr>& stagger, const std::vector<bool>& chained) {
    std::vector<expr> left;
    for (size_t i = 0; i < hops.size(); ++i) {
      expr gap = stagger[i].is_constant(0) ? hops[i] : model::max(expr(0), hops[i] - stagger[i]);
      left.push_back(chained[i] ? model::max(expr(1), gap) : gap);
    }
    return full_wavefront(s, left);
  };
  const std::vector<expr> none(hops.size(), expr(0));
  for (auto& t : timings) t.wavefront = wavefront(none, std::vector<bool>(hops.size(), false));
  for (size_t n = 0; n < a.networks.size(); ++n) {
    const io_network& net = a.networks[n];
    if (!net.input) continue;
    std::vector<expr> stagger = input_stagger(a, s, n, timings);
    std::vector<bool> chained(hops.size(), false);
    for (int dim : net.cluster_order) chained[static_cast<size_t>(dim)] = true;
    for (size_t k = 0; k < a.modules.size(); ++k)
      if (a.modules[k].network == static_cast<int>(n)) timings[k].wavefront = wavefront(stagger, chained);
  }
}

void staggered_drains(const architecture& a, const symbols& s, std::vector<module_timing>& timings) {
  const size_t dims = a.design->space.size();
  // Per dim, for the inputs that run in every tile (so in the last one too): how far apart their
  // unbuffered chains start the PEs along it (group g's data is there (g + 1) x stagger after the
  // first word), and when the heads of their buffered chains along it have filled every buffer
  // of the chain (a double buffer's first step: only then does the head feed its own PEs, so all
  // PEs along the dim wait for it). An input that runs in only some tiles and has a buffered chain
  // along the dim leaves the dim alone.
  std::vector<expr> stagger(dims, expr(0)), filled(dims, expr(0));
  std::vector<bool> unknown(dims, false);
  for (size_t n = 0; n < a.networks.size(); ++n) {
    const io_network& net = a.networks[n];
    if (!net.input) continue;
    bool every_tile = true;
    for (size_t k = 0; k < a.modules.size(); ++k)
      if (a.modules[k].network == static_cast<int>(n))
        for (auto r : timings[k].ranges) every_tile = every_tile && r == tile_range::all;
    if (!net.cluster_order.empty()) {
      size_t dim = static_cast<size_t>(net.cluster_order[0]);
      if (!every_tile) unknown[dim] = true;
      for (size_t k = 0; every_tile && k < a.modules.size(); ++k) {
        const module_kind& kind = a.modules[k];
        if (kind.network == static_cast<int>(n) && kind.level == net.buffered_level && !kind.boundary)
          filled[dim] = model::max(filled[dim], timings[k].fill);
      }
    }
    if (!every_tile) continue;
    std::vector<expr> here = input_stagger(a, s, n, timings);
    for (size_t i = 0; i < dims; ++i)
      if (!here[i].is_constant(0)) stagger[i] = stagger[i].is_constant(0) ? here[i] : model::max(stagger[i], here[i]);
  }
  // Along a dim the PEs forward data (an exterior network), a PE runs at most a FIFO's depth
  // (2 tokens) ahead of the next, so the groups of a tile end together, behind the last one to
  // start: no group's send starts early (inout MM's [i,j] arrays: C's reload staggers the PEs along
  // j, A's forwarding along j holds the first ones back).
  std::vector<bool> coupled(dims, false);
  for (const auto& net : a.networks)
    if (net.along) coupled[static_cast<size_t>(*net.along)] = true;
  for (size_t n = 0; n < a.networks.size(); ++n) {
    const io_network& net = a.networks[n];
    if (net.input) continue;
    // The unbuffered chain along a staggered dim sends its G groups of W words in the order the
    // inputs started them, each once it is done: group g starts at max(filled, (g + 1) stagger)
    // and ends that much before the last, so the last tile's send ends
    // max(W, start(0) - start(G - 1) + G W) after the last PE (the latest of the groups' ends,
    // convex in g: at the first or the last group). A module that moves all G groups: not a
    // chain end.
    for (size_t l = 1; l < net.cluster_order.size(); ++l) {
      size_t dim = static_cast<size_t>(net.cluster_order[l]);
      if (stagger[dim].is_constant(0) || unknown[dim] || coupled[dim]) continue;
      expr groups = s.grid(dim);
      expr first = model::max(filled[dim], stagger[dim]),
           last = model::max(filled[dim], groups * stagger[dim] + groups - expr(1));  // a cycle a module (set_wavefronts)
      for (size_t k = 0; k < a.modules.size(); ++k) {
        const module_kind& kind = a.modules[k];
        if (kind.network != static_cast<int>(n) || kind.boundary || kind.level < net.buffered_level + static_cast<int>(l)) continue;
        module_timing& t = timings[k];
        t.drain = model::max(t.drain / groups, first - last + t.drain);
      }
    }
  }
}

void single_buffered_drains(const architecture& a, const pe_frame& f, const pipeline_timing& timing, const expr& wavefront,
                            std::vector<module_timing>& timings) {
  for (size_t n = 0; n < a.networks.size(); ++n) {
    if (a.networks[n].input) continue;
    std::optional<expr> span;
    for (size_t k = 0; k < a.modules.size(); ++k) {
      const module_kind& kind = a.modules[k];
      if (kind.network != static_cast<int>(n) || !kind.buffered) continue;
      bool double_buffered = false;
      for (const auto& part : kind.parts) double_buffered = double_buffered || part.previous_tile;
      if (double_buffered) continue;
      // The PE writes the first `depth` tokens of a tile into the FIFO before the module must
      // read one: it waits from the next token on.
      int64_t depth = 0;
      for (const auto& q : a.fifos)
        if (q.producer_kind == 0 && q.consumer_kind == static_cast<int>(k)) depth = std::max(depth, q.depth);
      for (const auto& part : kind.parts) {
        if (part.iterates != module_part::iteration::pe_frame) continue;
        expr s = token_span(part, f.strides, f.extents, f.at_template, timing, depth);
        span = span ? model::max(*span, s) : s;
      }
      timings[k].step = timings[k].drain;  // the span is added below, in place of the collect
    }
    if (!span) continue;
    span = model::max(expr(0), *span - wavefront);
    for (size_t k = 0; k < a.modules.size(); ++k)
      if (a.modules[k].network == static_cast<int>(n) && a.modules[k].level >= a.networks[n].buffered_level)
        timings[k].step = timings[k].step + *span;
  }
}

}  // namespace sadsl::modeling
