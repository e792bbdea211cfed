// Static cycles of one part of a module instance for one tile (no FIFO stalls).
#include "sadsl/comm/part_cycles.hpp"

#include <isl/ast.h>
#include <isl/id.h>

#include <algorithm>
#include <set>

#include "exec_program.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

std::string id_of(const isl::ast_expr& e) {
  if (isl_ast_expr_get_type(e.get()) != isl_ast_expr_id) return "";
  isl_id* id = isl_ast_expr_get_id(e.get());
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  return name;
}

class walker {
public:
  walker(const exec::compiled_part& p, std::vector<int64_t> slots, const pipeline_timing& t)
      : slots_(std::move(slots)), timing_(t) {
    for (const auto& b : p.blocks)
      for (const auto& op : b.ops)
        if (op.vector && op.has_lane && op.lane.op == exec::iop::slot) lanes_.insert(op.lane.slot);
  }

  int64_t cost(const exec::node& n) {
    switch (n.kind) {
      case exec::node_kind::for_loop: {
        if (lanes_.count(n.slot)) return first_iteration(n);
        bool pipelined = only_lane_loops_inside(n.children[0]);
        int64_t total = 0, trips = 0;
        for (slot(n.slot) = exec::evaluate(n.init, slots_.data()); exec::evaluate(n.cond, slots_.data());
             slot(n.slot) += exec::evaluate(n.inc, slots_.data())) {
          ++trips;
          if (!pipelined) total += cost(n.children[0]);
          else total += timing_.ii;  // HLS issues every iteration, whatever its guards skip
        }
        return pipelined ? (trips > 0 ? total + timing_.depth : 0) : total;
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

  int64_t first_iteration(const exec::node& n) {
    slot(n.slot) = exec::evaluate(n.init, slots_.data());
    return exec::evaluate(n.cond, slots_.data()) ? cost(n.children[0]) : 0;
  }

  bool only_lane_loops_inside(const exec::node& n) const {
    if (n.kind == exec::node_kind::for_loop && !lanes_.count(n.slot)) return false;
    return std::all_of(n.children.begin(), n.children.end(), [&](const exec::node& c) { return only_lane_loops_inside(c); });
  }

  std::vector<int64_t> slots_;
  pipeline_timing timing_;
  std::set<int> lanes_;
};

}  // namespace

std::vector<std::string> lane_iterators(const module_part& part) {
  std::set<std::string> out;
  for (const auto& b : part.blocks)
    for (const auto& op : b.ops)
      if (op.vector && op.lane)
        if (std::string id = id_of(*op.lane); !id.empty()) out.insert(id);
  return {out.begin(), out.end()};
}

int64_t part_cycles(const architecture& a, int kind, int part, int instance, const std::vector<int64_t>& tile,
                    const pipeline_timing& timing) {
  const module_kind& k = a.modules.at(static_cast<size_t>(kind));
  const std::vector<int64_t>& coords = k.instances.at(static_cast<size_t>(instance));
  SADSL_INTERNAL_ASSERT(tile.size() == a.design->tile_order.size(), "part_cycles: a tile has one value per tile loop");
  exec::compiled_part p = exec::compile_part(k.parts.at(static_cast<size_t>(part)), tile.size(), coords.size());
  std::vector<int64_t> slots(static_cast<size_t>(p.slots), 0);
  std::copy(tile.begin(), tile.end(), slots.begin());
  std::copy(coords.begin(), coords.end(), slots.begin() + static_cast<long>(tile.size()));
  return walker(p, std::move(slots), timing).cost(p.root);
}

std::vector<std::vector<int64_t>> phase_tiles(const architecture& a, size_t phase) {
  exec::compiled_part loops = exec::compile_tiles(a.tiles, a.design->tile_order.size());
  std::vector<int64_t> slots(static_cast<size_t>(loops.slots), 0);
  for (size_t j = 0; j < a.phase_loops.size(); ++j) slots[a.phase_loops[j]] = a.phases.at(phase)[j];
  std::vector<std::vector<int64_t>> out;
  auto walk = [&](auto&& self, const exec::node& n) -> void {
    switch (n.kind) {
      case exec::node_kind::for_loop:
        for (slots[static_cast<size_t>(n.slot)] = exec::evaluate(n.init, slots.data()); exec::evaluate(n.cond, slots.data());
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
