// FIFO depths: the input FIFOs of PEs that run behind along a partial-sum chain (fifo_depths.hpp).
#include "sadsl/comm/fifo_depths.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "exec_program.hpp"
#include "sadsl/comm/part_cycles.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

// Space dim d carries partial results of tensor t: a statement of the band that writes t reduces
// over the space loop d, an op= (its reduction loops) or an assignment that reads t and runs over
// d without indexing t by it (C = max(C, A + B) over k: a reduction written out).
bool reduces_along(const architecture& a, const tensor_id& t, size_t d) {
  const loop_id& l = a.design->space.at(d);
  for (const auto& st : a.design->band->source->statements()) {
    if (st.write.tensor->id() != t) continue;
    if (std::find(st.reduction_loops.begin(), st.reduction_loops.end(), l) != st.reduction_loops.end()) return true;
    bool reads_itself = std::any_of(st.reads.begin(), st.reads.end(), [&](const access_info& r) { return r.tensor->id() == t; });
    bool runs_over = std::find(st.loops.begin(), st.loops.end(), l) != st.loops.end();
    if (reads_itself && runs_over && !st.write.uses(l)) return true;
  }
  return false;
}

// Walks a PE's compute part through one tile at II 1 without pipeline depth (part_cycles'
// rules: a pipelined loop's iterations one cycle apart, each user node outside one a cycle) and
// notes the cycle of the first read of port `in` and the first write of port `out`.
class first_use_walker {
public:
  first_use_walker(const exec::compiled_part& p, std::vector<int64_t> slots, int in, int out)
      : p_(p), slots_(std::move(slots)), in_(in), out_(out) {}

  std::optional<int64_t> read, write;

  void visit(const exec::node& n, std::optional<int64_t> at = std::nullopt) {
    if (read && write) return;
    switch (n.kind) {
      case exec::node_kind::for_loop: {
        bool pipelined = !at && n.loop == loop_kind::pipelined;
        int64_t start = now_, i = 0;
        int64_t& x = slots_.at(static_cast<size_t>(n.slot));
        for (x = exec::evaluate(n.init, slots_.data()); exec::evaluate(n.cond, slots_.data()) && !(read && write);
             x += exec::evaluate(n.inc, slots_.data()))
          visit(n.children[0], pipelined ? std::optional<int64_t>(start + i++) : at);
        if (pipelined) now_ = start + i;
        return;
      }
      case exec::node_kind::if_then:
        if (exec::evaluate(n.cond, slots_.data())) visit(n.children[0], at);
        else if (n.children.size() > 1) visit(n.children[1], at);
        return;
      case exec::node_kind::block:
        for (const auto& c : n.children) visit(c, at);
        return;
      case exec::node_kind::user: {
        if (n.block < 0) return;
        int64_t cycle = at ? *at : now_++;
        for (const auto& op : p_.blocks.at(static_cast<size_t>(n.block)).ops) {
          if (op.has_when && !exec::evaluate(op.when, slots_.data())) continue;
          if (op.what == operation::kind::read_port && op.port == in_ && !read) read = cycle;
          if (op.what == operation::kind::write_port && op.port == out_ && !write) write = cycle;
        }
        return;
      }
    }
  }

private:
  const exec::compiled_part& p_;
  std::vector<int64_t> slots_;
  int in_, out_;
  int64_t now_ = 0;
};

}  // namespace

std::vector<partial_sum_chain> partial_sum_chains(const architecture& a) {
  std::vector<partial_sum_chain> out;
  for (const auto& g : a.groups) {
    if (g.kind != io_group_kind::flow || g.type != io_type::exterior) continue;
    for (size_t d = 0; d < g.direction.size(); ++d) {
      if (g.direction[d] == 0 || !reduces_along(a, g.tensor, d)) continue;
      if (std::any_of(out.begin(), out.end(), [&](const partial_sum_chain& c) { return c.dim == static_cast<int>(d); })) continue;
      out.push_back({static_cast<int>(d), g.direction[d] > 0, g.tensor});
    }
  }
  std::sort(out.begin(), out.end(), [](const partial_sum_chain& x, const partial_sum_chain& y) { return x.dim < y.dim; });
  return out;
}

int64_t partial_sum_place(const architecture& a, const std::vector<partial_sum_chain>& chains, const std::vector<int64_t>& pe) {
  int64_t place = 0;
  for (const auto& c : chains) {
    int64_t x = pe.at(static_cast<size_t>(c.dim));
    place += c.increasing ? x : a.pe_grid.at(static_cast<size_t>(c.dim)) - 1 - x;
  }
  return place;
}

int64_t tokens_per_tile(const architecture& a, int kind) {
  const module_kind& k = a.modules.at(static_cast<size_t>(kind));
  SADSL_INTERNAL_ASSERT(k.role == module_role::io_in && k.buffered, "tokens_per_tile: a buffered input module kind");
  // The first tile is a whole one (a guarded design's partial tiles come last), and an input that
  // feeds PEs down a partial-sum chain runs in every tile.
  std::vector<std::vector<int64_t>> first = phase_tiles(a, 0, 1);
  SADSL_INTERNAL_ASSERT(!first.empty(), "tokens_per_tile: a phase without tiles");
  int64_t most = 0;
  for (size_t p = 0; p < k.parts.size(); ++p)
    if (k.parts[p].iterates == module_part::iteration::pe_frame)
      most = std::max(most, part_cycles(a, kind, static_cast<int>(p), 0, first.front(), pipeline_timing{1, 0}));
  return most;
}

int64_t partial_sum_hop(const architecture& a, const partial_sum_chain& c) {
  const module_kind& pe = a.pe();
  // The PE ports that pass the partial sums along the chain: a FIFO from one PE to the next.
  int in = -1, out = -1, instance = -1;
  for (const auto& f : a.fifos) {
    if (f.producer_kind != 0 || f.consumer_kind != 0 || pe.ports.at(static_cast<size_t>(f.producer_port)).tensor != c.tensor)
      continue;
    const auto& from = pe.instances.at(static_cast<size_t>(f.producer_instance));
    const auto& to = pe.instances.at(static_cast<size_t>(f.consumer_instance));
    if (from[static_cast<size_t>(c.dim)] == to[static_cast<size_t>(c.dim)]) continue;
    in = f.consumer_port;
    out = f.producer_port;
    instance = f.consumer_instance;  // a PE that reads partial sums from its neighbour
    break;
  }
  if (instance < 0) return 0;
  std::vector<std::vector<int64_t>> tiles = phase_tiles(a, 0, 1);
  SADSL_INTERNAL_ASSERT(!tiles.empty(), "partial_sum_hop: a phase without tiles");
  const std::vector<int64_t>& coords = pe.instances.at(static_cast<size_t>(instance));
  int64_t hop = 0;
  for (size_t part = 0; part < pe.parts.size(); ++part) {
    exec::compiled_part p = exec::compile_part(pe.parts[part], tiles.front().size(), coords.size());
    std::vector<int64_t> slots(static_cast<size_t>(p.slots), 0);
    std::copy(tiles.front().begin(), tiles.front().end(), slots.begin());
    std::copy(coords.begin(), coords.end(), slots.begin() + static_cast<long>(tiles.front().size()));
    first_use_walker w(p, std::move(slots), in, out);
    w.visit(p.root);
    if (w.read && w.write) hop = std::max(hop, *w.write - *w.read + 1);
  }
  return hop;
}

void size_fifos(architecture& a) {
  std::vector<partial_sum_chain> chains = partial_sum_chains(a);
  std::vector<int64_t> hops;
  for (const auto& c : chains) hops.push_back(partial_sum_hop(a, c));
  std::map<int, int64_t> tokens;  // per input module kind
  for (auto& f : a.fifos) {
    f.depth = default_fifo_depth;
    if (chains.empty() || f.consumer_kind != 0 || a.modules.at(static_cast<size_t>(f.producer_kind)).role != module_role::io_in)
      continue;
    const std::vector<int64_t>& pe = a.pe().instances.at(static_cast<size_t>(f.consumer_instance));
    for (size_t c = 0; c < chains.size(); ++c) {
      int64_t place = partial_sum_place(a, {chains[c]}, pe);
      if (place == 0) continue;
      auto t = tokens.find(f.producer_kind);
      if (t == tokens.end()) t = tokens.emplace(f.producer_kind, tokens_per_tile(a, f.producer_kind)).first;
      f.depth += place * std::min(t->second, hops[c]);
    }
  }
}

}  // namespace sadsl
