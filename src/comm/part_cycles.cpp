// Static cycles of one part of a module instance for one tile (no FIFO stalls).
#include "sadsl/comm/part_cycles.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "exec_program.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

void control_slots(const exec::node& n, std::set<int>& out);

// The static cost of a compiled part (its loops carry classify_loop's kinds). A loop whose trips
// have a closed form (a bound the body cannot change, a constant step) costs trips x II when
// pipelined, and trips x its body's cost when nothing in the body's control reads its iterator:
// the same sum as iteration by iteration, without the walk.
class walker {
public:
  walker(std::vector<int64_t> slots, const pipeline_timing& t) : slots_(std::move(slots)), timing_(t) {}

  int64_t cost(const exec::node& n) {
    switch (n.kind) {
      case exec::node_kind::for_loop: {
        bool pipelined = n.loop == loop_kind::pipelined;
        if (auto trips = closed_trips(n)) {
          slot(n.slot) = exec::evaluate(n.init, slots_.data());
          if (pipelined) return *trips * timing_.ii + timing_.depth;
          if (*trips == 0) return 0;
          if (!reads_iterator(n)) return *trips * cost(n.children[0]);
        }
        int64_t total = 0;
        for (slot(n.slot) = exec::evaluate(n.init, slots_.data()); exec::evaluate(n.cond, slots_.data());
             slot(n.slot) += exec::evaluate(n.inc, slots_.data()))
          total += pipelined ? timing_.ii : cost(n.children[0]);
        return pipelined ? total + timing_.depth : total;
      }
      case exec::node_kind::if_then:
        if (exec::evaluate(n.cond, slots_.data())) return cost(n.children[0]);
        return n.children.size() > 1 ? cost(n.children[1]) : 0;
      case exec::node_kind::block: {
        int64_t total = 0;
        for (const auto& c : n.children) total += cost(c);
        return total;
      }
      case exec::node_kind::user: return n.block >= 0 ? 1 : 0;
    }
    return 0;
  }

private:
  int64_t& slot(int s) { return slots_.at(static_cast<size_t>(s)); }

  // for (i = init; i <= bound (or <); i += step) with the bound hoisted and a constant step > 0.
  std::optional<int64_t> closed_trips(const exec::node& n) {
    if (!n.hoisted || !n.inc.affine || !n.inc.terms.empty() || n.inc.constant <= 0) return std::nullopt;
    int64_t first = exec::evaluate(n.init, slots_.data());
    slot(n.slot) = first;
    int64_t last = exec::evaluate(n.bound, slots_.data()) - (n.strict ? 1 : 0);
    return last < first ? 0 : (last - first) / n.inc.constant + 1;
  }

  bool reads_iterator(const exec::node& loop) {
    auto known = reads_.find(&loop);
    if (known != reads_.end()) return known->second;
    std::set<int> read;
    control_slots(loop.children[0], read);
    return reads_[&loop] = read.count(loop.slot) > 0;
  }

  std::vector<int64_t> slots_;
  pipeline_timing timing_;
  std::map<const exec::node*, bool> reads_;
};

// The cycles of a compiled part at module coordinates `coords` for one tile.
int64_t cycles_of(const exec::compiled_part& p, const std::vector<int64_t>& tile, const std::vector<int64_t>& coords,
                  const pipeline_timing& timing) {
  std::vector<int64_t> slots(static_cast<size_t>(p.slots), 0);
  std::copy(tile.begin(), tile.end(), slots.begin());
  std::copy(coords.begin(), coords.end(), slots.begin() + static_cast<long>(tile.size()));
  return walker(std::move(slots), timing).cost(p.root);
}

void add_slots_read(const exec::iexpr& e, std::set<int>& out) {
  for (const auto& i : e.code)
    if (i.op == exec::iop::slot) out.insert(i.target);
}

// The slots the loops and guards of n read (what its cycles depend on; the operations' indices
// and conditions cost nothing).
void control_slots(const exec::node& n, std::set<int>& out) {
  if (n.kind == exec::node_kind::for_loop)
    for (const auto* e : {&n.init, &n.cond, &n.inc}) add_slots_read(*e, out);
  if (n.kind == exec::node_kind::if_then) add_slots_read(n.cond, out);
  for (const auto& c : n.children) control_slots(c, out);
}

}  // namespace

int64_t part_cycles(const architecture& a, int kind, int part, int instance, const std::vector<int64_t>& tile,
                    const pipeline_timing& timing) {
  const module_kind& k = a.modules.at(static_cast<size_t>(kind));
  const std::vector<int64_t>& coords = k.instances.at(static_cast<size_t>(instance));
  SADSL_INTERNAL_ASSERT(tile.size() == a.design->tile_order.size(), "part_cycles: a tile has one value per tile loop");
  exec::compiled_part p = exec::compile_part(k.parts.at(static_cast<size_t>(part)), tile.size(), coords.size());
  return cycles_of(p, tile, coords, timing);
}

std::vector<int64_t> most_part_cycles(const architecture& a, int kind, int part, const std::vector<std::vector<int64_t>>& tiles,
                                      const pipeline_timing& timing) {
  const module_kind& k = a.modules.at(static_cast<size_t>(kind));
  const size_t n_tiles = a.design->tile_order.size(), n_coords = k.index_dims.size();
  exec::compiled_part p = exec::compile_part(k.parts.at(static_cast<size_t>(part)), n_tiles, n_coords);
  // Instances alike in the coordinates the control reads take the same cycles: one of each.
  std::set<int> read;
  control_slots(p.root, read);
  std::set<std::vector<int64_t>> distinct;
  for (const auto& c : k.instances) {
    std::vector<int64_t> seen(c.size(), 0);
    for (size_t i = 0; i < c.size(); ++i)
      if (read.count(static_cast<int>(n_tiles + i))) seen[i] = c[i];
    distinct.insert(seen);
  }
  std::vector<int64_t> out;
  for (const auto& t : tiles) {
    SADSL_INTERNAL_ASSERT(t.size() == n_tiles, "most_part_cycles: a tile has one value per tile loop");
    int64_t most = 0;
    for (const auto& c : distinct) most = std::max(most, cycles_of(p, t, c, timing));
    out.push_back(most);
  }
  return out;
}

std::vector<std::vector<int64_t>> phase_tiles(const architecture& a, size_t phase) {
  return phase_tiles(a, phase, std::numeric_limits<size_t>::max());
}

std::vector<std::vector<int64_t>> phase_tiles(const architecture& a, size_t phase, size_t most) {
  exec::compiled_part loops = exec::compile_tiles(a.tiles, a.design->tile_order.size());
  std::vector<int64_t> slots(static_cast<size_t>(loops.slots), 0);
  for (size_t j = 0; j < a.phase_loops.size(); ++j) slots[a.phase_loops[j]] = a.phases.at(phase)[j];
  std::vector<std::vector<int64_t>> out;
  auto walk = [&](auto&& self, const exec::node& n) -> void {
    if (out.size() >= most) return;
    switch (n.kind) {
      case exec::node_kind::for_loop:
        for (slots[static_cast<size_t>(n.slot)] = exec::evaluate(n.init, slots.data());
             out.size() < most && exec::evaluate(n.cond, slots.data());
             slots[static_cast<size_t>(n.slot)] += exec::evaluate(n.inc, slots.data()))
          self(self, n.children[0]);
        break;
      case exec::node_kind::if_then:
        if (exec::evaluate(n.cond, slots.data())) self(self, n.children[0]);
        else if (n.children.size() > 1) self(self, n.children[1]);
        break;
      case exec::node_kind::block:
        for (const auto& c : n.children) self(self, c);
        break;
      case exec::node_kind::user: {
        std::vector<int64_t> t;
        for (const auto& x : n.args) t.push_back(exec::evaluate(x, slots.data()));
        out.push_back(std::move(t));
        break;
      }
    }
  };
  walk(walk, loops.root);
  return out;
}

}  // namespace sadsl
